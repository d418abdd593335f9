/** Scopes an API key can carry (spec, Authentication). */
export const SCOPES = ['read', 'write', 'publish', 'engage'] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPES as readonly string[]).includes(value);
}

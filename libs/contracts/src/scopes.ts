/**
 * Scopes an API key can carry: the spec's four (Authentication), and `accounts` (connect
 * and disconnect social accounts), which a key has only when it is asked for.
 */
export const SCOPES = ['read', 'write', 'publish', 'engage', 'accounts'] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPES as readonly string[]).includes(value);
}

/**
 * Scopes an API key can carry: the spec's four (Authentication), `accounts` (connect
 * and disconnect social accounts) and `webhooks` (manage webhook endpoints, their
 * delivery log and replays) and `approve` (review posts held for approval, change the workspace's
 * settings), which a key has only when it is asked for.
 */
export const SCOPES = ['read', 'write', 'publish', 'engage', 'accounts', 'webhooks', 'approve'] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPES as readonly string[]).includes(value);
}

/**
 * One entry of a workspace's sign-in redirect allow list: an origin (scheme, host, port),
 * written as `new URL(...).origin` writes it, so it compares equal to a redirectUri's origin.
 * An origin, not a whole url: what the allow list protects is where the connection id goes,
 * and a connection id is worth nothing without the verifier only the client's backend holds.
 * Null when the value is not a bare http(s) origin.
 */
export function redirectOrigin(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  const bare = (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash && !url.username && !url.password && !value.trim().endsWith('#');
  return bare && (url.protocol === 'https:' || url.protocol === 'http:') ? url.origin : null;
}

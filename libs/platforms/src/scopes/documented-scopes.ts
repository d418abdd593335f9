/**
 * What each platform's documentation says an endpoint requires of the access token: one row
 * per endpoint the connectors and sign-in clients call, copied from the endpoint's reference
 * page (named in `doc`). It is the documentation's table, not a list of what our code does:
 * the platform sandbox refuses a call whose token lacks the row's scopes (as the platform
 * does), and the sign-in clients' scopes are checked to cover every row
 * (sign-in-scopes.spec.ts). Imports nothing: the sandbox reads it without loading a connector.
 */

export type DocumentedMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface DocumentedEndpoint {
  method: DocumentedMethod;
  /** The path as the reference writes it (after the API host), parameters in braces: /2/tweets/{id}/hidden. */
  path: string;
  /**
   * The scopes the token must hold: every scope of one of these sets. Most pages list one set;
   * a second set is another grant the page accepts (Mastodon's parent `write` for
   * `write:statuses`, Google's broader youtube scope, LinkedIn's member or organization
   * permission by author). [[]]: the page requires a valid token and no scope.
   */
  anyOf: readonly (readonly string[])[];
  /** The reference page the row is copied from. */
  doc: string;
}

export type ScopeTable = readonly DocumentedEndpoint[];

/** A path with every parameter ({id} as documented, :id as routers write it) made alike, to compare routes with rows. */
export function pathShape(path: string): string {
  return path
    .split('?')[0]
    .split('/')
    .map((segment) => (/^(\{[^}]*\}|:.+)$/.test(segment) ? '{}' : segment))
    .join('/')
    .replace(/\/+$/, '');
}

/**
 * The row of `method path` in a table: the row written exactly so, else the only row of the
 * same shape. Undefined when none is, or when several are and the path does not say which
 * (a router serving several documented endpoints on one route names the one it plays).
 */
export function documentedEndpoint(table: ScopeTable, method: string, path: string): DocumentedEndpoint | undefined {
  const exact = table.find((row) => row.method === method && row.path === path);
  if (exact) return exact;
  const shape = pathShape(path);
  const alike = table.filter((row) => row.method === method && pathShape(row.path) === shape);
  return alike.length === 1 ? alike[0] : undefined;
}

/** Whether scopes granted satisfy a row: every scope of one of its sets. */
export function grantsEndpoint(endpoint: DocumentedEndpoint, granted: readonly string[]): boolean {
  return endpoint.anyOf.some((set) => set.every((scope) => granted.includes(scope)));
}

/** The scopes of the row's first set the grant lacks (what an error message names). */
export function missingScopes(endpoint: DocumentedEndpoint, granted: readonly string[]): string[] {
  return (endpoint.anyOf[0] ?? []).filter((scope) => !granted.includes(scope));
}

/** Every scope the first set of some row names: what a user consenting to all the table's endpoints grants. */
export function scopesOfTable(table: ScopeTable): string[] {
  return [...new Set(table.flatMap((row) => row.anyOf[0] ?? []))];
}

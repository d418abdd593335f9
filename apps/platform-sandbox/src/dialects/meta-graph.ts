import type { SandboxIdentity } from '../auth/authority';
import type { RouteAnswer } from '../dialect';
import { PlatformRefusal } from '../dialect';
import type { SandboxStore } from '../store';

const DEFAULT_GRAPH_CODES: Record<number, number> = { 400: 100, 401: 190, 403: 10, 404: 803, 500: 2, 503: 2 };
/** Errors Graph types OAuthException: credentials (1 wrong client secret, 104, 190) and permissions (10, 200-299). */
const OAUTH_EXCEPTION_CODES = new Set([1, 10, 104, 190]);

/**
 * Graph API error body (Facebook, Instagram, Threads), as on Graph's "Handling Errors" page
 * (https://developers.facebook.com/docs/graph-api/guides/error-handling):
 * {"error": {message, type, code, error_subcode, fbtrace_id}}. A code written "190/463"
 * carries its error_subcode.
 */
export function graphError(status: number, code: string | undefined, message: string): RouteAnswer {
  const [graphCode, subcode] = /^\d+(\/\d+)?$/.test(code ?? '') ? (code as string).split('/').map(Number) : [DEFAULT_GRAPH_CODES[status] ?? (status >= 500 ? 2 : 100)];
  return {
    status,
    body: {
      error: {
        message,
        type: OAUTH_EXCEPTION_CODES.has(graphCode) || (graphCode >= 200 && graphCode <= 299) ? 'OAuthException' : 'GraphMethodException',
        code: graphCode,
        ...(subcode !== undefined ? { error_subcode: subcode } : {}),
        ...(status >= 500 ? { is_transient: true } : {}),
        fbtrace_id: `sandbox${Date.now().toString(36)}`,
      },
    },
  };
}

/** Graph's refusal of a token: code 190 with its authentication subcode, or 104 for none (Handling Errors page). */
const TOKEN_REFUSALS: Record<'missing' | 'unknown' | 'expired' | 'revoked', [string, string]> = {
  missing: ['104', 'An access token is required to request this resource.'],
  unknown: ['190', 'Invalid OAuth access token - Cannot parse access token'],
  expired: ['190/463', 'Error validating access token: Session has expired.'],
  // 458 "App Not Installed": the user removed the app, which ends every token of the grant.
  revoked: ['190/458', 'Error validating access token: The user has not authorized the application.'],
};

/** A refused token passed as a parameter (token endpoints, which check their own). */
export function graphTokenRefusal(reason: keyof typeof TOKEN_REFUSALS): PlatformRefusal {
  const [code, message] = TOKEN_REFUSALS[reason];
  return new PlatformRefusal(400, code, message);
}

/** A refused bearer token: HTTP 400, OAuthException 190, with Graph's WWW-Authenticate challenge. */
export function graphUnauthorized(reason: keyof typeof TOKEN_REFUSALS): RouteAnswer {
  const [code, message] = TOKEN_REFUSALS[reason];
  return { ...graphError(400, code, message), headers: { 'www-authenticate': `OAuth "Facebook Platform" "invalid_token" "${message}"` } };
}

/**
 * Business use case throttling (Graph "Rate Limits" page,
 * https://developers.facebook.com/docs/graph-api/overview/rate-limiting): Pages with a page
 * token (80001) and Instagram (80002) answer HTTP 400 with X-Business-Use-Case-Usage, whose
 * `estimated_time_to_regain_access` is the wait in minutes (keyed by the business object).
 */
export function businessUseCaseLimited(code: '80001' | '80002', type: 'pages' | 'instagram', message: string) {
  return (resetAfterSeconds: number): RouteAnswer => {
    const usage = { type, call_count: 100, total_cputime: 0, total_time: 0, estimated_time_to_regain_access: Math.ceil(resetAfterSeconds / 60) };
    return { ...graphError(400, code, message), headers: { 'x-business-use-case-usage': JSON.stringify({ sandbox: [usage] }) } };
  };
}

/**
 * App/user throttling (code 17; Threads counts calls per app and user over 24 hours):
 * X-App-Usage tells usage percentages only, no time to wait.
 */
export function graphRateLimited(): RouteAnswer {
  return { ...graphError(400, '17', 'User request limit reached'), headers: { 'x-app-usage': JSON.stringify({ call_count: 100, total_cputime: 0, total_time: 0 }) } };
}

/** Graph refuses a token that does not act for the node in the path with a permission error (#10, #200). */
export function requireActingFor(identity: SandboxIdentity | null, allowed: (identity: SandboxIdentity) => boolean, code: '10' | '200', message: string): void {
  if (!identity || !allowed(identity)) throw new PlatformRefusal(403, code, message);
}

/** Numeric Graph-style ids (Instagram and Threads media, containers, comments). */
export function graphId(store: SandboxStore): string {
  return String(17_840_000_000_000_000n + BigInt(store.nextSeq()));
}

/** Reads a container created earlier by this account; refuses unknown, foreign or used ones like Graph does. */
export function takeContainer(store: SandboxStore, account: string, creationId: string) {
  const container = store.pending.get(creationId);
  if (!container || container.account !== account) throw new PlatformRefusal(400, '100', `Invalid parameter: creation_id ${creationId} does not exist`);
  if (container.consumedBy) throw new PlatformRefusal(400, '9007', 'The media has already been published');
  return container;
}

export function stringParam(params: Record<string, unknown>, name: string): string | undefined {
  const value = params[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The media urls a container (and its carousel children) points at. */
export function containerMedia(store: SandboxStore, params: Record<string, unknown>): string[] {
  const own = [stringParam(params, 'image_url'), stringParam(params, 'video_url')].filter((url): url is string => url !== undefined);
  const children = (stringParam(params, 'children') ?? '').split(',').filter((id) => id !== '');
  return [...own, ...children.flatMap((id) => containerMedia(store, store.pending.get(id)?.params ?? {}))];
}

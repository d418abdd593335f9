import type { ConnectorAccount, PlatformError } from '../connector';
import { backoffDelayMs, RetryPolicy } from '../http/retry-policy';
import { codeForStatus, isTransientStatus, PlatformCallFailed, PlatformHttp, PlatformResponse } from '../http/platform-http';
import { at, bearer, stringAt } from './connector-context';

/** The Graph API version every Meta call uses (Facebook pages, Instagram). One place to move it. */
export const GRAPH_API_VERSION = 'v23.0';
/** The Threads API has its own versioning. */
export const THREADS_API_VERSION = 'v1.0';

/**
 * Throttling codes (Graph "Handling Errors" and "Rate Limits" pages,
 * https://developers.facebook.com/docs/graph-api/guides/error-handling and
 * https://developers.facebook.com/docs/graph-api/overview/rate-limiting): 4 app, 17 user,
 * 32 page, 341 application limit, 613 custom; 80001 Pages and 80002 Instagram business use case.
 */
const RATE_LIMIT_GRAPH_CODES = new Set([4, 17, 32, 341, 613, 80001, 80002]);
/**
 * 1 "API Unknown" and 2 "API Service": a temporary outage, unless it is an OAuthException,
 * which the guide reads as a refused credential (code 1 is also Graph's answer to a wrong
 * client secret on the token endpoint).
 */
const OUTAGE_GRAPH_CODES = new Set([1, 2]);
/** A refused token: 190 "access token has expired" and 102 "API session", each refined by its subcode. */
const TOKEN_GRAPH_CODES = new Set([102, 190]);
/** The one authentication subcode that says the token ran out ("Expired"); 458, 460, 467... say it was revoked or is invalid. */
const EXPIRED_TOKEN_SUBCODE = 463;

const GRAPH_CODE_NAMES: Record<number, string> = {
  10: 'permission_denied',
  100: 'invalid_parameter',
  368: 'temporarily_blocked',
  506: 'duplicate_post',
  9004: 'media_unreachable',
};

/**
 * Graph API errors: {"error": {message, type, code, error_subcode, is_transient, fbtrace_id}}.
 * Throttling comes back as a 4xx with code 4/17/32/613, so retryability reads `is_transient`
 * when the body says it, else the code (and type), and the HTTP status only when there is no code.
 * A refused token (190 or 102: "expired, been revoked, or is otherwise invalid") is
 * access_token_expired only with the Expired subcode 463, else access_token_invalid.
 */
export function mapGraphError(response: PlatformResponse): PlatformError {
  const error = at(response.body, 'error');
  const graphCode = Number(at(error, 'code'));
  const known = Number.isFinite(graphCode);
  const transient = at(error, 'is_transient');
  const outage = OUTAGE_GRAPH_CODES.has(graphCode) && at(error, 'type') !== 'OAuthException';
  const retryable = typeof transient === 'boolean' ? transient : known ? outage || RATE_LIMIT_GRAPH_CODES.has(graphCode) : isTransientStatus(response.status);
  let code = codeForStatus(response.status);
  if (known && RATE_LIMIT_GRAPH_CODES.has(graphCode)) code = 'rate_limited';
  else if (known && OUTAGE_GRAPH_CODES.has(graphCode) && retryable) code = 'platform_unavailable';
  else if (known && TOKEN_GRAPH_CODES.has(graphCode)) code = Number(at(error, 'error_subcode')) === EXPIRED_TOKEN_SUBCODE ? 'access_token_expired' : 'access_token_invalid';
  else if (known && GRAPH_CODE_NAMES[graphCode]) code = GRAPH_CODE_NAMES[graphCode];
  else if (known && graphCode >= 200 && graphCode <= 299) code = 'permission_denied';
  else if (known) code = `graph_error_${graphCode}`;
  return {
    code,
    message: stringAt(error, 'error_user_msg') ?? stringAt(error, 'message') ?? `the Graph API answered HTTP ${response.status}`,
    retryable,
  };
}

/**
 * The wait a throttled Graph answer asks for. Meta sends no Retry-After: the Business Use
 * Case header (Pages with a page token, Instagram) tells `estimated_time_to_regain_access`
 * in minutes per business object; the app and user limits (X-App-Usage, Threads) only tell
 * usage percentages, so they name no wait (Rate Limits page, see above).
 */
export function graphRateLimitWaitMs(response: PlatformResponse): number | null {
  const header = response.headers.get('x-business-use-case-usage');
  if (header === null) return null;
  let usage: unknown;
  try {
    usage = JSON.parse(header);
  } catch {
    return null;
  }
  const minutes = Object.values(usage !== null && typeof usage === 'object' ? usage : {})
    .flatMap((entries) => (Array.isArray(entries) ? entries : []))
    .map((entry) => Number(at(entry, 'estimated_time_to_regain_access')))
    .filter((value) => Number.isFinite(value) && value > 0);
  return minutes.length > 0 ? Math.max(...minutes) * 60_000 : null;
}

/** HTTP for every Meta call (Facebook, Instagram, Threads, their sign-in): Graph's error dialect and throttling waits. */
export function graphHttp(retry: RetryPolicy): PlatformHttp {
  return new PlatformHttp(mapGraphError, retry, graphRateLimitWaitMs);
}

/**
 * Video containers (Instagram, Threads) are processed asynchronously: publishing one that
 * is not FINISHED fails. Polls its status a bounded number of times with the policy's backoff.
 */
export async function waitForContainer(http: PlatformHttp, versionedBase: string, account: ConnectorAccount, containerId: string): Promise<void> {
  const policy = http.policy;
  for (let attempt = 1; attempt <= policy.maxAttempts; attempt++) {
    const response = await http.send({ method: 'GET', url: `${versionedBase}/${containerId}?fields=status_code,status`, headers: bearer(account) });
    const status = stringAt(response.body, 'status_code') ?? stringAt(response.body, 'status');
    if (status === 'FINISHED') return;
    if (status === 'ERROR' || status === 'EXPIRED') {
      throw new PlatformCallFailed({ code: 'media_processing_failed', message: `the platform could not process the media (container ${status})`, retryable: false });
    }
    await policy.sleep(backoffDelayMs(policy, attempt));
  }
  throw new PlatformCallFailed({ code: 'media_processing_timeout', message: 'the media was still being processed; try again later', retryable: true });
}

/**
 * A published Meta item's permalink. Best effort: the item exists whatever this read does,
 * so a failed read falls back to the given url instead of failing the publish.
 */
export async function permalinkOr(http: PlatformHttp, versionedBase: string, account: ConnectorAccount, id: string, fallback: string): Promise<string> {
  try {
    const response = await http.send({ method: 'GET', url: `${versionedBase}/${encodeURIComponent(id)}?fields=permalink`, headers: bearer(account) });
    return stringAt(response.body, 'permalink') ?? fallback;
  } catch (error) {
    if (error instanceof PlatformCallFailed) return fallback;
    throw error;
  }
}

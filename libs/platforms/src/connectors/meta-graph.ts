import type { ConnectorAccount, PlatformError } from '../connector';
import { backoffDelayMs } from '../http/retry-policy';
import { codeForStatus, isTransientStatus, PlatformCallFailed, PlatformHttp, PlatformResponse } from '../http/platform-http';
import { at, bearer, stringAt } from './connector-context';

/** The Graph API version every Meta call uses (Facebook pages, Instagram). One place to move it. */
export const GRAPH_API_VERSION = 'v23.0';
/** The Threads API has its own versioning. */
export const THREADS_API_VERSION = 'v1.0';

/** Graph error codes that mean "try again later" (Meta's error-handling guide). */
const TRANSIENT_GRAPH_CODES = new Set([1, 2, 4, 17, 32, 341, 613, 80001]);
const RATE_LIMIT_GRAPH_CODES = new Set([4, 17, 32, 341, 613, 80001]);

const GRAPH_CODE_NAMES: Record<number, string> = {
  1: 'platform_unavailable',
  2: 'platform_unavailable',
  10: 'permission_denied',
  100: 'invalid_parameter',
  190: 'access_token_expired',
  368: 'temporarily_blocked',
  506: 'duplicate_post',
  9004: 'media_unreachable',
};

/**
 * Graph API errors: {"error": {message, type, code, error_subcode, is_transient, fbtrace_id}}.
 * Throttling comes back as a 4xx with code 4/17/32/613, so retryability reads the code
 * and `is_transient`, not only the HTTP status.
 */
export function mapGraphError(response: PlatformResponse): PlatformError {
  const error = at(response.body, 'error');
  const graphCode = Number(at(error, 'code'));
  const known = Number.isFinite(graphCode);
  let code = codeForStatus(response.status);
  if (known && RATE_LIMIT_GRAPH_CODES.has(graphCode)) code = 'rate_limited';
  else if (known && GRAPH_CODE_NAMES[graphCode]) code = GRAPH_CODE_NAMES[graphCode];
  else if (known && graphCode >= 200 && graphCode <= 299) code = 'permission_denied';
  else if (known) code = `graph_error_${graphCode}`;
  return {
    code,
    message: stringAt(error, 'error_user_msg') ?? stringAt(error, 'message') ?? `the Graph API answered HTTP ${response.status}`,
    retryable: at(error, 'is_transient') === true || (known && TRANSIENT_GRAPH_CODES.has(graphCode)) || (!known && isTransientStatus(response.status)),
  };
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

import type { ConnectorAccount, PlatformError, PublishedLookup } from '../connector';
import { codeForStatus, isTransientStatus, PlatformCallFailed, PlatformHttp, PlatformResponse } from '../http/platform-http';
import type { RetryPolicy } from '../http/retry-policy';
import { malformedAnswer } from '../outcome';
import { arrayAt, at, bearer, stringAt } from './connector-context';
import { findInWindow, platformTimeMs, PublishedCandidate, windowStartMs } from './published-lookup';
import { ProcessingState, waitUntilProcessed } from './media-upload';

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
/** Code 100 with subcode 33: "Object with ID ... does not exist, cannot be loaded due to missing permissions, or does not support this operation". */
const MISSING_OBJECT_SUBCODE = 33;

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
  else if (graphCode === 100 && Number(at(error, 'error_subcode')) === MISSING_OBJECT_SUBCODE) code = 'object_not_found';
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
 * How a container's processing status is read: Instagram's IG Container has `status_code`
 * (and a `status` text explaining an error: IG Container reference,
 * https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-container);
 * a Threads container has `status` and `error_message` ("Threads API Troubleshooting",
 * https://developers.facebook.com/docs/threads/troubleshooting). Both say EXPIRED, ERROR,
 * FINISHED, IN_PROGRESS or PUBLISHED.
 */
export interface ContainerStatusFields {
  code: 'status_code' | 'status';
  detail: 'status' | 'error_message';
}

/**
 * Media containers (Instagram, Threads) are processed asynchronously after the platform
 * fetched their url: publishing (or putting in a carousel) one that is not FINISHED fails.
 * Reads its status until FINISHED with the shared bounded wait (waitUntilProcessed: growing
 * pauses on the retry policy's clock, a few minutes at most; Threads' troubleshooting page
 * advises "no more than 5 minutes"). ERROR / EXPIRED fail the post as
 * media_processing_failed, a container still IN_PROGRESS at the bound as
 * media_processing_timeout (retryable: a new attempt makes new containers; unpublished ones
 * expire after 24 hours).
 */
async function waitForContainer(http: PlatformHttp, versionedBase: string, account: ConnectorAccount, containerId: string, fields: ContainerStatusFields): Promise<void> {
  const read = async (): Promise<ProcessingState> => {
    const response = await http.send({
      method: 'GET',
      url: `${versionedBase}/${encodeURIComponent(containerId)}?fields=${fields.code},${fields.detail}`,
      headers: bearer(account),
    });
    const status = stringAt(response.body, fields.code);
    if (status === 'FINISHED') return { state: 'ready' };
    if (status !== 'ERROR' && status !== 'EXPIRED') return { state: 'processing' };
    const detail = stringAt(response.body, fields.detail);
    return { state: 'failed', message: `container ${status}${detail ? `: ${detail}` : ''}` };
  };
  await waitUntilProcessed(http.policy, `the media of container ${containerId}`, { state: 'processing' }, read);
}

/** One item of a post as a media container takes it (its url and type fields), and whether the platform processes it before it can be used. */
export interface ContainerItem {
  fields: Record<string, string>;
  processed: boolean;
}

/** Where one platform's containers are made and how their status reads. */
export interface ContainerEdge {
  http: PlatformHttp;
  versionedBase: string;
  /** POST here creates a container: /{ig-user-id}/media or /{threads-user-id}/threads. */
  createUrl: string;
  status: ContainerStatusFields;
}

/**
 * The container to publish for a post's media: one item's own container, or (several) a
 * child container per item (`is_carousel_item`), each processed one waited for, then a
 * CAROUSEL container listing them (Instagram "Content Publishing", carousel posts;
 * Threads "Carousel Posts"). `postFields` (caption/text) go on the container that is
 * published. The final container is waited for too. Containers are safe to create again
 * on redelivery: an unpublished one expires after 24 hours.
 */
export async function prepareMediaContainer(edge: ContainerEdge, account: ConnectorAccount, items: ContainerItem[], postFields: Record<string, string>): Promise<string> {
  if (items.length === 1) {
    const id = await createContainer(edge, account, { ...items[0].fields, ...postFields });
    await waitForContainer(edge.http, edge.versionedBase, account, id, edge.status);
    return id;
  }
  const children: string[] = [];
  for (const item of items) children.push(await createContainer(edge, account, { ...item.fields, is_carousel_item: 'true' }));
  // Created first, waited for afterwards: the platform processes the children side by side.
  for (const [index, item] of items.entries()) {
    if (item.processed) await waitForContainer(edge.http, edge.versionedBase, account, children[index], edge.status);
  }
  const carousel = await createContainer(edge, account, { media_type: 'CAROUSEL', children: children.join(','), ...postFields });
  await waitForContainer(edge.http, edge.versionedBase, account, carousel, edge.status);
  return carousel;
}

export async function createContainer(edge: ContainerEdge, account: ConnectorAccount, form: Record<string, string>): Promise<string> {
  const response = await edge.http.send({ method: 'POST', url: edge.createUrl, headers: bearer(account), form });
  const id = stringAt(response.body, 'id');
  if (!id) throw malformedAnswer('container id');
  return id;
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

/** Where a Meta user's media list is and how its items read: Instagram's `caption`, Threads' `text`. */
export interface MediaListing {
  http: PlatformHttp;
  /** GET here lists the user's media, newest first: /{ig-user-id}/media or /{threads-user-id}/threads. */
  listUrl: string;
  textField: 'caption' | 'text';
  platformName: string;
  /** The url to give when an item has no permalink (the profile). */
  fallbackUrl: string;
}

/**
 * A Meta user's media since the attempt started (reconciliation): Instagram "IG User Media"
 * (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media)
 * and Threads "Retrieve a list of all a user's threads"
 * (https://developers.facebook.com/docs/threads/threads-media#retrieve-a-list-of-all-a-user-s-threads)
 * take the same query: `since` (epoch seconds, time-based paging), `limit`, and cursor paging
 * (`after`, `paging.next` while there is more); each item has `timestamp`, `permalink`,
 * `media_type` (a CAROUSEL_ALBUM counts its `children`, TEXT_POST none, any other one item).
 */
export function findInMediaListing(listing: MediaListing, account: ConnectorAccount, request: PublishedLookup): Promise<{ platformPostId: string; url: string } | null> {
  const since = String(Math.floor(windowStartMs(request) / 1000));
  return findInWindow(request, listing.platformName, async (cursor) => {
    const query = new URLSearchParams({ fields: `id,${listing.textField},timestamp,permalink,media_type,children{id}`, since, limit: '100', ...(cursor ? { after: cursor } : {}) });
    const response = await listing.http.send({ method: 'GET', url: `${listing.listUrl}?${query}`, headers: bearer(account) });
    const candidates = arrayAt(response.body, 'data').map((media): PublishedCandidate => {
      const id = stringAt(media, 'id');
      if (!id) throw malformedAnswer(`id on a ${listing.platformName} item`);
      const type = stringAt(media, 'media_type');
      const mediaCount = type === 'CAROUSEL_ALBUM' ? arrayAt(media, 'children', 'data').length : type === 'TEXT_POST' ? 0 : 1;
      return { platformPostId: id, url: stringAt(media, 'permalink') ?? listing.fallbackUrl, text: stringAt(media, listing.textField) ?? '', createdAtMs: platformTimeMs(at(media, 'timestamp')), mediaCount };
    });
    return { candidates, next: at(response.body, 'paging', 'next') ? (stringAt(response.body, 'paging', 'cursors', 'after') ?? null) : null };
  });
}

/**
 * A Graph (or Threads) call on one object that answers `{"success": true}`: hiding a comment,
 * deleting one. Anything else in a 2xx answer is reported, never taken for done.
 */
export async function graphSucceeded(http: PlatformHttp, request: { method: 'POST' | 'DELETE'; url: string; account: ConnectorAccount; form?: Record<string, string> }): Promise<void> {
  const response = await http.send({ method: request.method, url: request.url, headers: bearer(request.account), ...(request.form ? { form: request.form } : {}) });
  if (at(response.body, 'success') !== true) throw malformedAnswer('success: true');
}

/**
 * `DELETE /{object-id}` of one of the account's own comments. An object Graph no longer finds
 * (object_not_found) is already deleted: deleting is idempotent, so a retry after a lost answer
 * (PlatformHttp resends a call whose answer was lost) ends as done, not as a failure.
 */
export async function graphDeleted(http: PlatformHttp, url: string, account: ConnectorAccount): Promise<void> {
  try {
    await graphSucceeded(http, { method: 'DELETE', url, account });
  } catch (error) {
    if (error instanceof PlatformCallFailed && error.error.code === 'object_not_found') return;
    throw error;
  }
}

/**
 * A Graph insights answer ({data: [{name, period, values: [{value}]}]}, or {total_value: {value}} for
 * the totals Threads' user insights give) as {metric name: its value}, for `raw` and the vocabulary:
 * a metric the answer leaves out (Graph gives an empty set rather than 0 when it has no data, "IG Media
 * insights", Limitations) is absent, so it reads null.
 */
export function graphInsightValues(body: unknown): Record<string, unknown> {
  const entries = arrayAt(body, 'data').flatMap((entry): Array<[string, unknown]> => {
    const name = stringAt(entry, 'name');
    if (!name) return [];
    return [[name, at(entry, 'total_value', 'value') ?? at(entry, 'values', 0, 'value')]];
  });
  return Object.fromEntries(entries.filter(([, value]) => value !== undefined));
}

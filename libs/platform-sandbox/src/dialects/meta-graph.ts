import type { DocumentedEndpoint } from '@app/platforms/scopes';
import type { Platform } from '@app/contracts';
import type { SandboxIdentity } from '../auth/authority';
import type { PlatformRoute, RouteAnswer, RouteContext } from '../dialect';
import { existing, field, PlatformRefusal, required } from '../dialect';
import { describeSandboxMedia, SandboxMediaDescription } from '../media-host';
import { namedToFailProcessing, PendingObject, SandboxItem, SandboxStore, SandboxUpload } from '../store';
import { createdSince, graphTime, pageOf, pageSize } from './listing';
import { commentOnOwnPost, ModerationRefusals } from './moderation';

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
/**
 * Graph's refusal of a token without a permission the endpoint lists ("Handling Errors",
 * https://developers.facebook.com/docs/graph-api/guides/error-handling: 10 "API Permission
 * Denied", 200-299 "API Permission", both OAuthException): Pages answer #200 naming the
 * permission, Instagram and Threads #10.
 */
export function graphPermissionRefusal(code: '10' | '200') {
  return (_endpoint: DocumentedEndpoint, missing: string[]): RouteAnswer =>
    graphError(
      403,
      code,
      code === '200' ? `(#200) Requires ${missing.join(', ')} permission to manage the object` : `(#10) Application does not have permission for this action: ${missing.join(', ')} is required`,
    );
}

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
function takeContainer(store: SandboxStore, account: string, creationId: string) {
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

/**
 * What Meta finds at a url it is asked to pull (Instagram's and Threads' image_url /
 * video_url): the sandbox media host's description of it, or null when it cannot be
 * downloaded (another host, or an error status).
 */
export function pullableMedia(url: string): SandboxMediaDescription | null {
  const media = describeSandboxMedia(url);
  return media && media.status === 200 ? media : null;
}

/** The file name in a media url: a file named to fail fails processing (namedToFailProcessing in store.ts). */
function fileNameOf(url: string): string {
  return new URL(url).pathname.split('/').pop() ?? '';
}

/**
 * Records the media a container pulled as an upload under the container's id. Images are
 * ready at once; a video is processed (store.startProcessing: longer for a longer video, and
 * failing when its file is named to fail). `failure` names what the platform
 * refuses in it as soon as it reads it (its documented error, read back from the
 * container's status): such a container is in ERROR at once.
 */
export function pullIntoContainer(
  store: SandboxStore,
  platform: Platform,
  account: string,
  containerId: string,
  url: string,
  media: SandboxMediaDescription,
  altText: string | null,
  failure: string | null,
): SandboxUpload {
  const upload = store.addUpload({
    platform, account, id: containerId, contentType: media.contentType, declaredBytes: media.bytes, receivedBytes: media.bytes,
    width: media.width, height: media.height, durationSeconds: media.seconds, altText, state: 'ready', readyAt: Date.now(), extra: { url },
  });
  if (failure) store.startProcessing(upload, failure, Date.now());
  else if (media.contentType.startsWith('video/')) store.startProcessing(upload, namedToFailProcessing(fileNameOf(url)) ? 'FAILED_PROCESSING_VIDEO' : null);
  return upload;
}

/** A container's status as Instagram and Threads tell it: EXPIRED and PUBLISHED aside, IN_PROGRESS until its media is processed, then FINISHED or ERROR. */
export type ContainerStatus = 'IN_PROGRESS' | 'FINISHED' | 'ERROR' | 'PUBLISHED';

function containerStatus(store: SandboxStore, platform: Platform, containerId: string, container: PendingObject): { status: ContainerStatus; error: string | null } {
  if (container.consumedBy) return { status: 'PUBLISHED', error: null };
  const upload = store.upload(platform, containerId);
  // Text and carousel containers carry no media of their own: a carousel is made of finished children only.
  if (!upload || upload.state === 'ready') return { status: 'FINISHED', error: null };
  if (upload.state === 'failed') return { status: 'ERROR', error: upload.failure };
  return { status: 'IN_PROGRESS', error: null };
}

/**
 * A carousel's children: containers this account made as carousel items, `min` to `max`
 * of them, each FINISHED (Instagram "Content Publishing", carousel posts: "up to 10 images,
 * videos, or a mix"; Threads "Carousel Posts": "limited to 20 images, videos, or a mix", at
 * least 2). A child still processing is refused as Instagram refuses media not ready
 * (Error Codes page: 9007 / 2207027).
 */
export function carouselChildren(store: SandboxStore, platform: Platform, account: string, children: string, max: number): string[] {
  const ids = children.split(',').map((id) => id.trim()).filter((id) => id !== '');
  if (ids.length < 2 || ids.length > max) throw new PlatformRefusal(400, '100', `Invalid parameter: a carousel takes 2 to ${max} children; got ${ids.length}`);
  for (const id of ids) {
    const child = store.pending.get(id);
    if (!child || child.platform !== platform || child.account !== account || stringParam(child.params, 'is_carousel_item') !== 'true') {
      throw new PlatformRefusal(400, '100', `Invalid parameter: ${id} is not a carousel item container of this user`);
    }
    requireFinished(store, platform, id, child);
  }
  return ids;
}

/** Publishing (or using) a container whose media is not processed fails (Error Codes page: 9007 / 2207027). */
function requireFinished(store: SandboxStore, platform: Platform, containerId: string, container: PendingObject): void {
  const { status, error } = containerStatus(store, platform, containerId, container);
  if (status === 'IN_PROGRESS') throw new PlatformRefusal(400, '9007/2207027', 'The media is not ready for publishing, please wait for a moment');
  if (status === 'ERROR') throw new PlatformRefusal(400, '9007/2207027', `The media could not be processed (${error}); create a new container`);
}

/** The uploads a published container carries, in order (its own, or its carousel children's), marked as attached to the item. */
export function attachContainerMedia(store: SandboxStore, platform: Platform, containerId: string, container: PendingObject, itemId: string): SandboxUpload[] {
  const children = (stringParam(container.params, 'children') ?? '').split(',').filter((id) => id !== '');
  const uploads = (children.length > 0 ? children : [containerId])
    .map((id) => store.upload(platform, id))
    .filter((upload): upload is SandboxUpload => upload !== undefined);
  for (const upload of uploads) upload.attachedTo = itemId;
  return uploads;
}

/**
 * Making a container, as Instagram ("Content Publishing",
 * https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/content-publishing) and
 * Threads ("Posts", https://developers.facebook.com/docs/threads/posts) both do: a new id, the media
 * pulled under it (`pullMedia`, which refuses what the platform refuses before anything is kept),
 * the container kept for publishing. Answers {"id"}.
 */
export function createContainer(ctx: RouteContext, platform: Platform, owner: string, input: Record<string, unknown>, pullMedia: (containerId: string) => void): RouteAnswer {
  const id = graphId(ctx.store);
  pullMedia(id);
  ctx.store.pending.set(id, { platform, account: ctx.account, owner, params: input, consumedBy: null });
  return { body: { id } };
}

/**
 * Publishing a container by `creation_id` (Instagram /media_publish, Threads /threads_publish, the
 * same pages): this account's unused container, FINISHED, becomes the item `publish` adds, and is
 * PUBLISHED from then on. Answers {"id"}.
 */
export function publishContainer(ctx: RouteContext, platform: Platform, publish: (creationId: string, container: PendingObject) => SandboxItem): RouteAnswer {
  const creationId = required(field(ctx.body, 'creation_id'), 'creation_id', '100');
  const container = takeContainer(ctx.store, ctx.account, creationId);
  requireFinished(ctx.store, platform, creationId, container);
  const item = publish(creationId, container);
  container.consumedBy = item.id;
  return { body: { id: item.id } };
}

/**
 * GET /{id}: a container answers its status in the platform's own fields (`statusFields`: IG
 * Container's status_code and status,
 * https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-container;
 * Threads' status and error_message, https://developers.facebook.com/docs/threads/troubleshooting),
 * a published item its permalink. Each is its own documented endpoint (`documented`: the
 * paths of the platform's scope table), with its own permissions.
 */
export function containerOrItemRoute(
  platform: Platform,
  statusFields: (status: ContainerStatus, error: string | null) => Record<string, unknown>,
  permalinkOf: (item: SandboxItem) => string,
  documented: { container: string; item: string; user?: string },
  userFields?: (store: SandboxStore, user: SandboxIdentity, fields: string[]) => Record<string, unknown>,
): PlatformRoute {
  // The node is the platform's account itself (GET /{ig-user-id}?fields=followers_count) when a user route is documented.
  // The acting account itself first (sandbox test accounts may share a platform id), else the account of that id.
  const userOf = (store: SandboxStore, node: string, acting: SandboxIdentity | null) =>
    documented.user && userFields ? (acting?.platformAccountId === node ? acting : store.auth.byPlatformId(platform, node)) : undefined;
  return {
    method: 'GET',
    url: '/:version/:node',
    operation: ({ store, params, identity }) => (userOf(store, params.node, identity) ? 'metrics' : 'lookup'),
    documents: {
      paths: [documented.container, documented.item, ...(documented.user ? [documented.user] : [])],
      of: ({ store, params, identity }) => (store.pending.has(params.node) ? documented.container : userOf(store, params.node, identity) ? documented.user! : documented.item),
    },
    handle: ({ store, params, query, identity }) => {
      const user = userOf(store, params.node, identity);
      if (user && userFields) {
        requireActingFor(identity, (acting) => acting.key === user.key || acting.key === user.ownerKey, '10', '(#10) The user does not have permission to read this account');
        return { body: { id: user.platformAccountId, ...userFields(store, user, (query.fields ?? '').split(',').filter(Boolean)) } };
      }
      const container = store.pending.get(params.node);
      if (container) {
        const { status, error } = containerStatus(store, platform, params.node, container);
        return { body: { id: params.node, ...statusFields(status, error) } };
      }
      const item = existing(store, platform, params.node, '100');
      return { body: { id: item.id, permalink: permalinkOf(item) } };
    },
  };
}

/**
 * A Meta user's media list, as Instagram's "IG User Media"
 * (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media)
 * and Threads' "Retrieve a list of all a user's threads"
 * (https://developers.facebook.com/docs/threads/threads-media#retrieve-a-list-of-all-a-user-s-threads)
 * answer it: newest first, `since`/`until` (epoch seconds) bound it by creation, `limit` (at most 100)
 * and cursor paging (`after`; `paging.next` while there is more). Each item: its id, its text under
 * `textField`, `timestamp` (+0000), `permalink`, `media_type` (TEXT_POST without media, IMAGE, VIDEO,
 * CAROUSEL_ALBUM with `children` when the fields ask for them).
 */
export function mediaListing(
  ctx: RouteContext,
  items: readonly SandboxItem[],
  textField: 'caption' | 'text',
  permalinkOf: (item: SandboxItem) => string,
): RouteAnswer {
  const { query, baseUrl, params } = ctx;
  const refusal = (message: string) => new PlatformRefusal(400, '100', `(#100) ${message}`);
  const bound = (name: 'since' | 'until'): number | null => {
    const value = query[name];
    if (value === undefined) return null;
    const seconds = Number(value);
    if (!Number.isFinite(seconds)) throw refusal(`${name} must be a unix time`);
    return seconds * 1000;
  };
  const until = bound('until');
  const inRange = createdSince(items, bound('since')).filter((item) => until === null || Date.parse(item.createdAt) <= until);
  const { page, next } = pageOf(inRange, query.after, pageSize(query.limit, { min: 1, max: 100, default: 25 }, refusal), refusal);
  const withChildren = (query.fields ?? '').includes('children');
  const data = page.map((item) => {
    const type = item.media.length === 0 ? 'TEXT_POST' : item.media.length > 1 ? 'CAROUSEL_ALBUM' : item.media[0].contentType.startsWith('video/') ? 'VIDEO' : 'IMAGE';
    return {
      id: item.id,
      [textField]: item.text,
      timestamp: graphTime(item.createdAt),
      permalink: permalinkOf(item),
      media_type: type,
      ...(withChildren && type === 'CAROUSEL_ALBUM' ? { children: { data: item.media.map((upload) => ({ id: upload.id })) } } : {}),
    };
  });
  return { body: { data, paging: next ? { cursors: { after: next }, next: `${baseUrl}/${params.version}/${params.node}?after=${next}` } : {} } };
}

/** Graph's answers to a comment it cannot find (code 100, subcode 33) or may not moderate (#200). */
export const GRAPH_MODERATION_REFUSALS: ModerationRefusals = {
  notFound: (id) => new PlatformRefusal(400, '100/33', `Unsupported post request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`),
  notAllowed: (id) => new PlatformRefusal(403, '200', `(#200) The user does not have permission to moderate comment ${id}`),
};

/**
 * A true/false parameter of a Graph moderation call (Facebook's `is_hidden`, Instagram's and
 * Threads' `hide`), from the body or the query as Graph takes either; anything else is refused
 * with code 100 in the platform's words (`notBoolean`).
 */
export function graphBooleanParam(ctx: RouteContext, name: string, notBoolean: string): boolean {
  const value = required(field(ctx.body, name) ?? ctx.query[name], name, '100');
  if (value !== 'true' && value !== 'false') throw new PlatformRefusal(400, '100', notBoolean);
  return value === 'true';
}

/**
 * The comment in the path that a Facebook Page or Instagram account may delete: its own, or any
 * comment on its own posts (Comment and IG Comment references, "Deleting").
 */
function commentTheOwnerModerates(ctx: RouteContext, platform: 'facebook' | 'instagram'): SandboxItem {
  const comment = ctx.store.find(platform, ctx.params.node);
  if (comment?.kind === 'comment' && comment.account === ctx.account) return comment;
  return commentOnOwnPost(ctx, platform, ctx.params.node, GRAPH_MODERATION_REFUSALS);
}

/**
 * Moderating a comment at `/{comment-id}`, the same on Facebook (Comment reference,
 * https://developers.facebook.com/docs/graph-api/reference/comment/) and Instagram (IG Comment
 * reference, https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-comment/),
 * each behind its own permissions (the platform's scope table): "Updating" with `hideParam` (Facebook's
 * `is_hidden`, Instagram's `hide`) hides or shows a comment on the owner's post; "Deleting"
 * removes the owner's own comment or any on its posts. Both answer {"success": true}.
 */
export function graphCommentModerationRoutes(platform: 'facebook' | 'instagram', hideParam: 'is_hidden' | 'hide'): PlatformRoute[] {
  return [
    {
      method: 'POST',
      url: '/:version/:node',
      operation: 'hide_comment',
      handle: (ctx) => {
        const hidden = graphBooleanParam(ctx, hideParam, `(#100) ${hideParam} must be a boolean`);
        ctx.store.setHidden(commentOnOwnPost(ctx, platform, ctx.params.node, GRAPH_MODERATION_REFUSALS), hidden);
        return { body: { success: true } };
      },
    },
    {
      method: 'DELETE',
      url: '/:version/:node',
      operation: 'delete_comment',
      handle: (ctx) => {
        ctx.store.remove(commentTheOwnerModerates(ctx, platform));
        return { body: { success: true } };
      },
    },
  ];
}

/**
 * GET /{media-id}/insights?metric=a,b: Graph's insights answer (Page post insights,
 * https://developers.facebook.com/docs/graph-api/reference/insights; IG Media insights,
 * https://developers.facebook.com/docs/instagram-platform/reference/instagram-media/insights;
 * Threads media insights, https://developers.facebook.com/docs/threads/insights): `data`, one
 * entry per metric asked, {name, period: "lifetime", values: [{value}], title, description, id}.
 * A metric the platform does not offer is #100 naming the ones it does; an item of another
 * account is the permission error (#10 / #200). `offered` maps each metric name to its value.
 */
export function mediaInsightsRoute(
  platform: Platform,
  documented: string,
  permissionCode: '10' | '200',
  offered: (store: SandboxStore, item: SandboxItem) => Record<string, number>,
): PlatformRoute {
  return {
    method: 'GET',
    url: '/:version/:node/insights',
    operation: 'metrics',
    documents: { paths: [documented], of: () => documented },
    handle: ({ store, params, query, account }) => {
      const item = existing(store, platform, params.node, '100');
      if (item.account !== account) throw new PlatformRefusal(403, permissionCode, `(#${permissionCode}) The user does not have permission to read the insights of this object`);
      const values = offered(store, item);
      const asked = required(query.metric, 'metric', '100').split(',');
      const unknown = asked.find((name) => !(name in values));
      if (unknown) throw new PlatformRefusal(400, '100', `(#100) metric[${asked.indexOf(unknown)}] must be one of the following values: ${Object.keys(values).join(', ')}`);
      return {
        body: {
          data: asked.map((name) => ({ name, period: 'lifetime', values: [{ value: values[name] }], title: name, description: name, id: `${item.id}/insights/${name}/lifetime` })),
        },
      };
    },
  };
}

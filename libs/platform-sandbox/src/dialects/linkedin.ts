import { codePointLength } from '@app/platforms/content/text-length';
import type { SandboxIdentity } from '../auth/authority';
import { field, grantsScope, NewComment, PlatformDialect, PlatformRefusal, required, rootPostId, RouteContext } from '../dialect';
import type { SandboxItem, SandboxStore, SandboxUpload } from '../store';
import { inspectUpload, MIB } from './uploaded-media';
import { followerCount, itemCounts } from './metrics-growth';

const DEFAULT_CODES: Record<number, string> = { 400: 'ILLEGAL_ARGUMENT', 401: 'REVOKED_ACCESS_TOKEN', 403: 'ACCESS_DENIED', 404: 'NOT_FOUND', 422: 'UNPROCESSABLE_ENTITY', 500: 'INTERNAL_SERVER_ERROR', 503: 'SERVICE_UNAVAILABLE' };

/**
 * LinkedIn's versioned API refuses calls without its version headers, and a release
 * outside its support window: each monthly release (YYYYMM) is supported for one year,
 * then answers 426 NONEXISTENT_VERSION ("LinkedIn Marketing API Versioning",
 * https://learn.microsoft.com/en-us/linkedin/marketing/versioning). Measured on the
 * sandbox clock, so tests can move past a sunset.
 */
export function requireVersionHeaders({ headers, store }: RouteContext): void {
  const version = String(headers['linkedin-version'] ?? '');
  const release = /^(\d{4})(\d{2})(\.\d{2})?$/.exec(version);
  if (!release) throw new PlatformRefusal(400, 'VERSION_MISSING', 'A version must be present. Please specify a version by adding the LinkedIn-Version header');
  const [year, month] = [Number(release[1]), Number(release[2]) - 1];
  const now = store.auth.now();
  if (now < Date.UTC(year, month, 1) || now >= Date.UTC(year + 1, month, 1)) throw new PlatformRefusal(426, 'NONEXISTENT_VERSION', `Requested version ${version} is not active`);
  if (headers['x-restli-protocol-version'] !== '2.0.0') throw new PlatformRefusal(400, 'ILLEGAL_ARGUMENT', 'X-Restli-Protocol-Version 2.0.0 is required');
}

/** A LinkedIn identity's URN: sandbox ids are URNs, except a bare id, which is a member's. */
export function linkedInUrn(identity: SandboxIdentity): string {
  return identity.platformAccountId.startsWith('urn:li:') ? identity.platformAccountId : `urn:li:person:${identity.platformAccountId}`;
}

/**
 * A member's token acts as the member and as the organizations the member administers
 * (an organization's posts and comments are made with an administrator's token, Posts API
 * and Comments API permissions); any other author is refused.
 */
function requireActsAs(ctx: RouteContext, urn: string, resource: string): void {
  const identity = ctx.identity as SandboxIdentity;
  const administered = ctx.store.auth.managedBy(identity.key).filter((managed) => managed.kind === 'organization');
  if (![identity, ...administered].some((actor) => linkedInUrn(actor) === urn)) {
    throw new PlatformRefusal(403, 'ACCESS_DENIED', `Not enough permissions to access: ${resource} as ${urn}`);
  }
}

/**
 * LinkedIn's answers to a refused token ("Error Handling",
 * https://learn.microsoft.com/en-us/linkedin/shared/api-guide/concepts/error-handling).
 */
const REFUSED_TOKEN: Record<'missing' | 'unknown' | 'expired' | 'revoked', { serviceErrorCode: number; code?: string; message: string }> = {
  missing: { serviceErrorCode: 401, message: 'Empty oauth2_access_token' },
  unknown: { serviceErrorCode: 65600, code: 'INVALID_ACCESS_TOKEN', message: 'Invalid access token' },
  revoked: { serviceErrorCode: 65601, code: 'REVOKED_ACCESS_TOKEN', message: 'The token used in the request has been revoked by the user' },
  expired: { serviceErrorCode: 65602, code: 'EXPIRED_ACCESS_TOKEN', message: 'The token used in the request has expired' },
};

/** LinkedIn stores backslash-escaped little text; the sandbox keeps what the user sees. */
function unescapeLittleText(text: string): string {
  return text.replace(/\\([\\|{}@[\]()<>#*_~])/g, '$1');
}

function createComment(store: SandboxStore, { account, parent, text, author }: NewComment): SandboxItem {
  const postId = rootPostId(parent);
  const activity = postId.split(':').pop();
  return store.add({
    platform: 'linkedin', account, owner: author, id: `urn:li:comment:(urn:li:activity:${activity},${store.nextSeq()})`, kind: 'comment',
    text, mediaUrls: [], parentId: parent.id, postId, author, extra: {},
  });
}

/**
 * A comment as the Comments API answers it ("Comments API",
 * https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/comments-api):
 * `commentUrn` names it everywhere; `id` is only its number under the post.
 */
function commentJson(item: SandboxItem) {
  const stamp = { actor: item.author, time: Date.parse(item.createdAt) };
  return {
    actor: item.author,
    commentUrn: item.id,
    id: item.id.replace(/^.*,(\d+)\)$/, '$1'),
    object: item.postId,
    message: { text: item.text, attributes: [] },
    created: stamp,
    lastModified: stamp,
    ...(item.parentId !== item.postId ? { parentComment: item.parentId } : {}),
  };
}

/**
 * LinkedIn's media documentation (learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/):
 * - images-api: JPG, GIF and PNG; initializeUpload answers an uploadUrl the bytes are PUT to
 *   with the member's token;
 * - videos-api: MP4 of 75 KB to 500 MB ("Video File Size Specifications"), sent in parts of
 *   4,194,304 bytes, each PUT to its own pre-signed uploadUrl (no token) and named by the ETag
 *   it answers in finalizeUpload's uploadedPartIds; the video is then PROCESSING until AVAILABLE
 *   (or PROCESSING_FAILED);
 * - multiimage-post-api: 2 to 20 images; Posts API `altText` up to 4,086 characters; a post may
 *   only name media its author owns.
 */
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif'];
const VIDEO_PART_BYTES = 4_194_304;
const MIN_VIDEO_BYTES = 75 * 1024;
const MAX_VIDEO_BYTES = 500 * MIB;
const MULTI_IMAGE = { min: 2, max: 20 };
const MAX_ALT_TEXT = 4_086;

const STATUS: Record<SandboxUpload['state'], string> = { uploading: 'WAITING_UPLOAD', processing: 'PROCESSING', ready: 'AVAILABLE', failed: 'PROCESSING_FAILED' };

/** `?action=...` on the Rest.li action endpoints (initializeUpload, finalizeUpload). */
function action(ctx: RouteContext): string {
  return String(ctx.query.action ?? '');
}

/** An upload of this account by the token in its upload url. */
function uploadByToken(store: SandboxStore, token: string): SandboxUpload {
  for (const upload of store.uploads.values()) if (upload.platform === 'linkedin' && upload.extra.uploadToken === token) return upload;
  throw new PlatformRefusal(404, 'NOT_FOUND', 'Upload url not found or expired');
}

/** An image or video by URN, as its owner's token sees it; its processing state brought up to date. */
function mediaByUrn(ctx: RouteContext, urn: string): SandboxUpload {
  const upload = ctx.store.upload('linkedin', urn);
  if (!upload) throw new PlatformRefusal(404, 'NOT_FOUND', `Not Found: ${urn}`);
  if (upload.account !== ctx.account) throw new PlatformRefusal(403, 'ACCESS_DENIED', 'Accessing this video resource is forbidden. Please check your permissions for this resource');
  return upload;
}

function newUpload(ctx: RouteContext, kind: 'image' | 'video', owner: string, declaredBytes: number): SandboxUpload {
  const token = `C${kind === 'image' ? '4E10' : '5505'}AQ${String(ctx.store.nextSeq()).padStart(8, '0')}`;
  return ctx.store.addUpload({
    platform: 'linkedin', account: ctx.account, id: `urn:li:${kind}:${token}`, contentType: 'application/octet-stream', declaredBytes, receivedBytes: 0,
    width: null, height: null, durationSeconds: null, altText: null, state: 'uploading', readyAt: Date.now(), extra: { owner, uploadToken: token },
  });
}

function initializeRequest(ctx: RouteContext, resource: string): { owner: string; request: unknown } {
  requireVersionHeaders(ctx);
  if (action(ctx) !== 'initializeUpload') throw new PlatformRefusal(400, 'ILLEGAL_ARGUMENT', `Unsupported action ${action(ctx)}`);
  const request = field(ctx.body, 'initializeUploadRequest');
  const owner = required(field(request, 'owner'), '/initializeUploadRequest/owner');
  requireActsAs(ctx, owner, resource);
  return { owner, request };
}

/** Images API initializeUpload: {value: {uploadUrlExpiresAt, uploadUrl, image}}. */
function initializeImageUpload(ctx: RouteContext) {
  const { owner } = initializeRequest(ctx, 'images.CREATE');
  const upload = newUpload(ctx, 'image', owner, 0);
  const uploadUrl = `${ctx.baseUrl}/dms-uploads/${upload.extra.uploadToken}/uploaded-image/0`;
  return { body: { value: { uploadUrlExpiresAt: Date.now() + 86_400_000, uploadUrl, image: upload.id } } };
}

/** The image bytes, PUT with the member's token; an image LinkedIn cannot read fails processing. */
function receiveImage(ctx: RouteContext) {
  const upload = uploadByToken(ctx.store, ctx.params.token);
  if (upload.account !== ctx.account) throw new PlatformRefusal(403, 'ACCESS_DENIED', 'Not enough permissions to upload to this url');
  if (!Buffer.isBuffer(ctx.body) || ctx.body.length === 0) throw new PlatformRefusal(400, 'ILLEGAL_ARGUMENT', 'The request body must be the image bytes');
  Object.assign(upload, { ...inspectUpload(ctx.body), declaredBytes: ctx.body.length, receivedBytes: ctx.body.length });
  const unsupported = IMAGE_TYPES.includes(upload.contentType) ? null : `Unsupported image format ${upload.contentType}; supported: JPG, GIF, PNG`;
  ctx.store.startProcessing(upload, unsupported, Date.now());
  return { status: 201 };
}

/** Videos API initializeUpload: the upload instructions, one 4,194,304-byte part each. */
function initializeVideoUpload(ctx: RouteContext) {
  const { owner, request } = initializeRequest(ctx, 'videos.CREATE');
  const size = field(request, 'fileSizeBytes');
  if (typeof size !== 'number' || !Number.isSafeInteger(size)) throw new PlatformRefusal(400, 'ILLEGAL_ARGUMENT', '/initializeUploadRequest/fileSizeBytes is required');
  if (size < MIN_VIDEO_BYTES || size > MAX_VIDEO_BYTES) {
    throw new PlatformRefusal(400, 'ILLEGAL_ARGUMENT', `fileSizeBytes ${size} is outside the supported video file size of 75 KB to 500 MB`);
  }
  const upload = newUpload(ctx, 'video', owner, size);
  const parts = Math.ceil(size / VIDEO_PART_BYTES);
  upload.extra.parts = String(parts);
  const uploadInstructions = Array.from({ length: parts }, (_, index) => ({
    uploadUrl: `${ctx.baseUrl}/dms-uploads/video/${upload.extra.uploadToken}/part/${index}`,
    firstByte: index * VIDEO_PART_BYTES,
    lastByte: Math.min(size, (index + 1) * VIDEO_PART_BYTES) - 1,
  }));
  // A single-part upload's uploadToken is empty; a multipart one names the session.
  const uploadToken = parts > 1 ? upload.extra.uploadToken : '';
  return { body: { value: { uploadUrlsExpireAt: Date.now() + 86_400_000, video: upload.id, uploadInstructions, uploadToken } } };
}

/** One video part at its pre-signed url: exactly its byte range; answers the ETag finalizeUpload names it by. */
function receiveVideoPart(ctx: RouteContext) {
  const upload = uploadByToken(ctx.store, ctx.params.token);
  const index = Number(ctx.params.index);
  const parts = Number(upload.extra.parts);
  if (!Number.isSafeInteger(index) || index < 0 || index >= parts) throw new PlatformRefusal(400, 'ILLEGAL_ARGUMENT', `No upload part ${ctx.params.index}`);
  const expected = Math.min(upload.declaredBytes, (index + 1) * VIDEO_PART_BYTES) - index * VIDEO_PART_BYTES;
  if (!Buffer.isBuffer(ctx.body) || ctx.body.length !== expected) {
    throw new PlatformRefusal(400, 'ILLEGAL_ARGUMENT', `Part ${index} must carry ${expected} bytes, got ${Buffer.isBuffer(ctx.body) ? ctx.body.length : 0}`);
  }
  if (index === 0) Object.assign(upload, inspectUpload(ctx.body));
  const etag = `/ambry-video/${upload.extra.uploadToken}/part-${index}`;
  if (upload.extra[`etag${index}`] === undefined) upload.receivedBytes += expected;
  upload.extra[`etag${index}`] = etag;
  return { headers: { etag } };
}

/**
 * Videos API finalizeUpload: every part arrived and is named by its ETag, in order; processing
 * starts and lasts as processingEndsAt (store.ts) says (longer for a longer video: `seconds=` on the media
 * host). The part uploads carry no file name, so the sandbox's `fail-processing` name convention
 * cannot reach LinkedIn; instead a video whose track declares no picture size (`width=0` or
 * `height=0` on the media host) fails processing, as a file without a video picture does.
 */
function finalizeVideoUpload(ctx: RouteContext) {
  requireVersionHeaders(ctx);
  const request = field(ctx.body, 'finalizeUploadRequest');
  const upload = mediaByUrn(ctx, required(field(request, 'video'), '/finalizeUploadRequest/video'));
  if (upload.state !== 'uploading') throw new PlatformRefusal(400, 'ILLEGAL_ARGUMENT', `Video ${upload.id} was already finalized`);
  const expectedToken = Number(upload.extra.parts) > 1 ? upload.extra.uploadToken : '';
  if (field(request, 'uploadToken') !== expectedToken) throw new PlatformRefusal(400, 'ILLEGAL_ARGUMENT', '/finalizeUploadRequest/uploadToken does not match the upload');
  const etags = Array.from({ length: Number(upload.extra.parts) }, (_, index) => upload.extra[`etag${index}`]);
  const named = field(request, 'uploadedPartIds');
  if (etags.some((etag) => etag === undefined) || JSON.stringify(named) !== JSON.stringify(etags)) {
    throw new PlatformRefusal(400, 'ILLEGAL_ARGUMENT', 'uploadedPartIds must list the ETag of every uploaded part, in order');
  }
  const unreadable = !upload.width || !upload.height || upload.contentType !== 'video/mp4';
  ctx.store.startProcessing(upload, unreadable ? 'The video has no readable MP4 video track' : null);
  return { status: 200 };
}

/** GET /rest/images/{urn} and /rest/videos/{urn}: the media with its status (and why processing failed). */
function mediaJson(ctx: RouteContext) {
  requireVersionHeaders(ctx);
  const upload = mediaByUrn(ctx, ctx.params.urn);
  const status = STATUS[upload.state];
  return {
    body: {
      id: upload.id,
      owner: upload.extra.owner,
      status,
      ...(upload.width && upload.height ? { aspectRatioWidth: upload.width, aspectRatioHeight: upload.height } : {}),
      ...(upload.durationSeconds !== null ? { duration: upload.durationSeconds * 1000 } : {}),
      ...(status === 'AVAILABLE' ? { downloadUrl: `https://media.licdn.com/dms/${upload.extra.uploadToken}` } : {}),
      ...(status === 'PROCESSING_FAILED' ? { processingFailureReason: upload.failure } : {}),
    },
  };
}

/** The media a post names: the author's own, AVAILABLE (a video still processing cannot be posted), with its altText. */
function postedMedia(ctx: RouteContext, author: string, content: unknown): SandboxUpload[] {
  const single = field(content, 'media');
  const multi = field(content, 'multiImage');
  if (single !== undefined) return [attachable(ctx, author, single, '/content/media')];
  const images = field(multi, 'images');
  if (!Array.isArray(images)) throw new PlatformRefusal(422, 'UNPROCESSABLE_ENTITY', 'ERROR :: /content :: the sandbox plays media and multiImage content');
  if (images.length < MULTI_IMAGE.min || images.length > MULTI_IMAGE.max) {
    throw new PlatformRefusal(422, 'UNPROCESSABLE_ENTITY', `ERROR :: /content/multiImage/images :: a MultiImage post takes ${MULTI_IMAGE.min} to ${MULTI_IMAGE.max} images, got ${images.length}`);
  }
  return images.map((image, index) => {
    const path = `/content/multiImage/images/${index}`;
    if (!String(field(image, 'id')).startsWith('urn:li:image:')) throw new PlatformRefusal(422, 'UNPROCESSABLE_ENTITY', `ERROR :: ${path}/id :: MultiImage only supports images`);
    return attachable(ctx, author, image, path);
  });
}

function attachable(ctx: RouteContext, author: string, media: unknown, path: string): SandboxUpload {
  const id = required(field(media, 'id'), `${path}/id`);
  const upload = ctx.store.upload('linkedin', id);
  if (!upload || upload.extra.owner !== author) throw new PlatformRefusal(422, 'UNPROCESSABLE_ENTITY', `ERROR :: ${path}/id :: ${id} does not exist or is not owned by ${author}`);
  const status = STATUS[mediaByUrn(ctx, id).state];
  if (status !== 'AVAILABLE') throw new PlatformRefusal(422, 'UNPROCESSABLE_ENTITY', `ERROR :: ${path}/id :: ${id} is not AVAILABLE (status ${status})`);
  const altText = field(media, 'altText');
  if (altText !== undefined && (typeof altText !== 'string' || codePointLength(altText) > MAX_ALT_TEXT)) {
    throw new PlatformRefusal(422, 'UNPROCESSABLE_ENTITY', `ERROR :: ${path}/altText :: length must be at most ${MAX_ALT_TEXT} characters`);
  }
  return { ...upload, altText: typeof altText === 'string' ? altText : null };
}

/** LinkedIn Posts API (/rest/posts) with media content, the Images and Videos upload APIs, and socialActions comments, with its version headers checked. */
export const linkedinDialect: PlatformDialect = {
  platform: 'linkedin',
  error: (status, code, message) => ({ status, body: { status, serviceErrorCode: 100, code: code ?? DEFAULT_CODES[status] ?? 'ERROR', message } }),
  // "Not enough permissions to access: <resource>.<METHOD>" (https://learn.microsoft.com/en-us/linkedin/shared/api-guide/concepts/error-handling).
  insufficientScope: (endpoint) => linkedinDialect.error(403, 'ACCESS_DENIED', `Not enough permissions to access: ${endpoint.method} ${endpoint.path}`),
  unauthorized: (reason) => ({ status: 401, body: { status: 401, ...REFUSED_TOKEN[reason] } }),
  rateLimited: (resetAfterSeconds) => ({
    status: 429,
    headers: { 'retry-after': String(resetAfterSeconds) },
    body: { status: 429, serviceErrorCode: 101, code: 'TOO_MANY_REQUESTS', message: 'Resource level throttle APPLICATION DAY limit reached' },
  }),
  createComment,
  routes: [
    { method: 'POST', url: '/rest/images', operation: 'upload', handle: initializeImageUpload },
    { method: 'PUT', url: '/dms-uploads/:token/uploaded-image/0', operation: 'upload', handle: receiveImage },
    { method: 'GET', url: '/rest/images/:urn', operation: 'upload_status', handle: mediaJson },
    { method: 'POST', url: '/rest/videos', operation: 'upload', handle: (ctx) => (action(ctx) === 'finalizeUpload' ? finalizeVideoUpload(ctx) : initializeVideoUpload(ctx)) },
    // Pre-signed: the part uploads carry no token (videos-api, "Upload the Video").
    { method: 'PUT', url: '/dms-uploads/video/:token/part/:index', operation: 'upload', auth: 'none', handle: receiveVideoPart },
    { method: 'GET', url: '/rest/videos/:urn', operation: 'upload_status', handle: mediaJson },
    {
      method: 'POST',
      url: '/rest/posts',
      operation: 'publish',
      handle: (ctx) => {
        requireVersionHeaders(ctx);
        const { store, account, body } = ctx;
        const author = required(field(body, 'author'), '/author');
        requireActsAs(ctx, author, 'partnerApiPostsExternal.CREATE');
        const content = field(body, 'content');
        const commentary = field(body, 'commentary');
        // A post with media may have no commentary; a text post needs one.
        if (typeof commentary !== 'string' || (commentary === '' && content === undefined)) throw new PlatformRefusal(400, undefined, '/commentary is required');
        // 3,000 characters of commentary as received: escaped little text ("Posts API", "Little Text Format",
        // https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/little-text-format),
        // refused with the message LinkedIn gives (n8n-io/n8n#22899).
        const length = codePointLength(commentary);
        if (length > 3_000) throw new PlatformRefusal(400, undefined, `com.linkedin.content.common.exception.BadRequestResponseException: ShareCommentary text length (${length} characters) exceeded the maximum allowed (3000 characters)`);
        if (field(body, 'lifecycleState') !== 'PUBLISHED') throw new PlatformRefusal(422, 'UNPROCESSABLE_ENTITY', '/lifecycleState must be PUBLISHED');
        // The Post schema's visibility: CONNECTIONS, PUBLIC, LOGGED_IN or CONTAINER (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api).
        const visibility = required(field(body, 'visibility'), '/visibility');
        if (!['CONNECTIONS', 'PUBLIC', 'LOGGED_IN', 'CONTAINER'].includes(visibility)) throw new PlatformRefusal(422, 'UNPROCESSABLE_ENTITY', `/visibility ${visibility} is not a MemberNetworkVisibility`);
        const media = content === undefined ? [] : postedMedia(ctx, author, content);
        const item = store.add({
          platform: 'linkedin', account, owner: author, id: `urn:li:share:${7_200_000_000_000_000_000n + BigInt(store.nextSeq())}`, kind: 'post',
          text: unescapeLittleText(commentary), mediaUrls: [], media, parentId: null, postId: null, author, extra: { commentary, content: JSON.stringify(content ?? null), visibility },
        });
        for (const upload of media) upload.attachedTo = store.upload('linkedin', upload.id)!.attachedTo = item.id;
        return { status: 201, headers: { 'x-restli-id': item.id } };
      },
    },
    {
      method: 'GET',
      url: '/rest/posts',
      operation: 'lookup',
      // Posts API "Find Posts by Authors" (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api#find-posts-by-authors):
      // q=author&author={urn}, sortBy LAST_MODIFIED (default) or CREATED, newest first, paged by start/count (count at most 100).
      handle: (ctx) => {
        requireVersionHeaders(ctx);
        const { store, query } = ctx;
        if (query.q !== 'author') throw new PlatformRefusal(400, undefined, 'q must be author');
        const author = required(query.author, 'author');
        requireActsAs(ctx, author, 'partnerApiPostsExternal.FINDER-author');
        const sortBy = query.sortBy ?? 'LAST_MODIFIED';
        if (sortBy !== 'LAST_MODIFIED' && sortBy !== 'CREATED') throw new PlatformRefusal(400, undefined, 'sortBy must be LAST_MODIFIED or CREATED');
        const start = Number(query.start ?? 0);
        const count = Number(query.count ?? 10);
        if (!Number.isInteger(start) || start < 0 || !Number.isInteger(count) || count < 1 || count > 100) throw new PlatformRefusal(400, undefined, 'start must be 0 or more and count 1 to 100');
        const posts = store.items.filter((item) => item.platform === 'linkedin' && item.kind === 'post' && item.owner === author).reverse();
        const elements = posts.slice(start, start + count).map((item) => {
          const time = Date.parse(item.createdAt);
          const content = JSON.parse(item.extra.content ?? 'null');
          return {
            id: item.id, author, commentary: item.extra.commentary ?? item.text, visibility: 'PUBLIC', lifecycleState: 'PUBLISHED',
            distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
            createdAt: time, publishedAt: time, lastModifiedAt: time, isReshareDisabledByAuthor: false, ...(content ? { content } : {}),
          };
        });
        return { body: { paging: { start, count, links: [], total: posts.length }, elements } };
      },
    },
    {
      method: 'POST',
      url: '/rest/socialActions/:urn/comments',
      operation: 'comment',
      handle: (ctx) => {
        requireVersionHeaders(ctx);
        const { store, account, params, body } = ctx;
        const parent = store.find('linkedin', params.urn);
        if (!parent) throw new PlatformRefusal(404, 'NOT_FOUND', `Not Found: ${params.urn}`);
        const actor = required(field(body, 'actor'), '/actor');
        required(field(body, 'object'), '/object');
        requireActsAs(ctx, actor, 'partnerApiSocialActions.CREATE');
        const text = unescapeLittleText(required(field(field(body, 'message'), 'text'), '/message/text'));
        const comment = commentJson(createComment(store, { account, parent, text, author: actor }));
        // Rest.li names the created entity by its key in x-restli-id: for a comment, its number.
        return { status: 201, headers: { 'x-restli-id': comment.id }, body: comment };
      },
    },
    {
      // Comments API, "Delete a Comment" (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/comments-api):
      // `DELETE /rest/socialActions/{share, ugcPost or comment URN}/comments/{comment id}?actor=`; the actor must be the
      // comment's author and one the token acts as, with w_member_social (a member) or w_organization_social (an organization).
      method: 'DELETE',
      url: '/rest/socialActions/:urn/comments/:id',
      operation: 'delete_comment',
      handle: (ctx) => {
        requireVersionHeaders(ctx);
        const { store, params, query } = ctx;
        // The comment's number under the URN named: a comment on that post, or a reply to that comment.
        const comment = store.items.find((item) => item.platform === 'linkedin' && item.kind === 'comment' && (item.postId === params.urn || item.parentId === params.urn) && item.id.endsWith(`,${params.id})`));
        if (!comment) throw new PlatformRefusal(404, 'NOT_FOUND', `Not Found: comment ${params.id} on ${params.urn}`);
        const actor = required(query.actor, 'actor');
        requireActsAs(ctx, actor, 'partnerApiSocialActions.DELETE');
        const scope = actor.startsWith('urn:li:organization:') ? 'w_organization_social' : 'w_member_social';
        if (!grantsScope(ctx, scope) || comment.author !== actor) throw new PlatformRefusal(403, 'ACCESS_DENIED', `Not enough permissions to access: partnerApiSocialActions.DELETE as ${actor}`);
        store.remove(comment);
        return { status: 204 };
      },
    },
    {
      // "Organization Share Statistics" (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/organizations/share-statistics):
      // q=organizationalEntity, organizationalEntity (the organization's URN), shares=List(...) or ugcPosts=List(...) for
      // given posts; rw_organization_admin, as an ADMINISTRATOR of the organization; lifetime totals without timeIntervals,
      // each element's totalShareStatistics: impressionCount, uniqueImpressionsCount, clickCount, likeCount, commentCount,
      // shareCount, engagement.
      method: 'GET',
      url: '/rest/organizationalEntityShareStatistics',
      operation: 'metrics',
      handle: (ctx) => {
        requireVersionHeaders(ctx);
        const { store, query } = ctx;
        if (query.q !== 'organizationalEntity') throw new PlatformRefusal(400, 'ILLEGAL_ARGUMENT', 'q must be organizationalEntity');
        const organization = required(query.organizationalEntity, 'organizationalEntity');
        requireActsAs(ctx, organization, 'organizationalEntityShareStatistics.FINDER-organizationalEntity');
        const listed = (name: string) => /^List\((.*)\)$/.exec(query[name] ?? '')?.[1]?.split(',').filter(Boolean) ?? [];
        const elements = [...listed('shares').map((urn) => ['share', urn]), ...listed('ugcPosts').map((urn) => ['ugcPost', urn])].flatMap(([kind, urn]) => {
          const post = store.find('linkedin', urn);
          if (!post || post.owner !== organization) return [];
          const counts = itemCounts(store, post);
          const engagement = counts.impressions === 0 ? 0 : (counts.likes + counts.comments + counts.shares + counts.clicks) / counts.impressions;
          return [{ organizationalEntity: organization, [kind]: urn, totalShareStatistics: { impressionCount: counts.impressions, uniqueImpressionsCount: counts.reach, clickCount: counts.clicks, likeCount: counts.likes, commentCount: counts.comments, shareCount: counts.shares, engagement } }];
        });
        return { body: { elements, paging: { start: 0, count: elements.length, links: [] } } };
      },
    },
    {
      // "Retrieve Organization Follower Count" (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/organizations/organization-lookup-api#retrieve-organization-follower-count):
      // GET /rest/networkSizes/{organization URN}?edgeType=COMPANY_FOLLOWED_BY_COMPANY answers {firstDegreeSize}.
      method: 'GET',
      url: '/rest/networkSizes/:urn',
      operation: 'metrics',
      handle: (ctx) => {
        requireVersionHeaders(ctx);
        if (ctx.query.edgeType !== 'COMPANY_FOLLOWED_BY_COMPANY') throw new PlatformRefusal(400, 'ILLEGAL_ARGUMENT', 'edgeType must be COMPANY_FOLLOWED_BY_COMPANY');
        const organization = [...ctx.store.auth.identities.values()].find((identity) => identity.platform === 'linkedin' && linkedInUrn(identity) === ctx.params.urn);
        if (!organization) throw new PlatformRefusal(404, 'NOT_FOUND', `Not Found: ${ctx.params.urn}`);
        return { body: { firstDegreeSize: followerCount(ctx.store, organization) } };
      },
    },
    {
      // "Member Post Statistics" (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/members/post-statistics):
      // r_member_postAnalytics; q=entity, entity=(share:{urn}) or (ugc:{urn}), queryType (IMPRESSION, MEMBERS_REACHED,
      // RESHARE, REACTION, COMMENT), aggregation=TOTAL: one metric per call, its `count` in the element.
      method: 'GET',
      url: '/rest/memberCreatorPostAnalytics',
      operation: 'metrics',
      handle: (ctx) => {
        requireVersionHeaders(ctx);
        const { store, query, identity } = ctx;
        if (query.q !== 'entity') throw new PlatformRefusal(400, 'ILLEGAL_ARGUMENT', 'q must be entity (or me)');
        const urn = /^\((?:share|ugc):(.+)\)$/.exec(required(query.entity, 'entity'))?.[1];
        const post = urn ? store.find('linkedin', urn) : undefined;
        if (!post) throw new PlatformRefusal(404, 'NOT_FOUND', `Not Found: ${query.entity}`);
        if (post.owner !== linkedInUrn(identity!)) throw new PlatformRefusal(403, 'ACCESS_DENIED', 'Not enough permissions to access: memberCreatorPostAnalytics.FINDER-entity');
        const counts = itemCounts(store, post);
        const byType: Record<string, number> = { IMPRESSION: counts.impressions, MEMBERS_REACHED: counts.reach, RESHARE: counts.shares, REACTION: counts.likes, COMMENT: counts.comments };
        const queryType = required(query.queryType, 'queryType');
        if (!(queryType in byType)) throw new PlatformRefusal(400, 'ILLEGAL_ARGUMENT', `queryType must be one of ${Object.keys(byType).join(', ')}`);
        return { body: { elements: [{ count: byType[queryType], metricType: queryType }], paging: { start: 0, count: 1, links: [] } } };
      },
    },
    {
      // "Member Follower Statistics" (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/members/follower-statistics):
      // r_member_profileAnalytics; q=me answers the member's lifetime follower count, {elements: [{memberFollowersCount}]}.
      method: 'GET',
      url: '/rest/memberFollowersCount',
      operation: 'metrics',
      handle: (ctx) => {
        requireVersionHeaders(ctx);
        if (ctx.query.q !== 'me') throw new PlatformRefusal(400, 'ILLEGAL_ARGUMENT', 'q must be me');
        return { body: { elements: [{ memberFollowersCount: followerCount(ctx.store, ctx.identity!) }], paging: { start: 0, count: 1, links: [] } } };
      },
    },
    {
      method: 'GET',
      url: '/rest/socialActions/:urn/comments',
      operation: 'list_comments',
      handle: (ctx) => {
        requireVersionHeaders(ctx);
        // "Get Comments on Shares" answers a post's top-level comments, "Get Comments on Comments" (the
        // comment's URN in the path) the replies under one; each tells its reply count in commentsSummary.
        const { store, params } = ctx;
        const children = (urn: string) => store.items.filter((item) => item.platform === 'linkedin' && item.kind === 'comment' && item.parentId === urn);
        const elements = children(params.urn).map((item) => ({ ...commentJson(item), commentsSummary: { aggregatedTotalComments: children(item.id).length, selectedComments: [] } }));
        return { body: { elements, paging: { start: 0, count: elements.length, total: elements.length } } };
      },
    },
  ],
};

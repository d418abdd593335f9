import { randomBytes } from 'node:crypto';
import { existing, field, NewComment, PlatformDialect, PlatformRefusal, required, rootPostId } from '../dialect';
import type { RouteAnswer } from '../dialect';
import type { SandboxItem, SandboxStore, SandboxUpload } from '../store';
import { contentRange, GIB, inspectUpload } from './uploaded-media';
import { pageOf, pageSize } from './listing';
import { itemCounts } from './metrics-growth';
import { commentOnOwnPost, ModerationRefusals, ownComment } from './moderation';
import { commentAuthor } from './comment-author';

const DEFAULT_REASONS: Record<number, string> = { 400: 'badRequest', 401: 'authError', 403: 'forbidden', 404: 'notFound', 500: 'backendError', 503: 'backendError' };

function youtubeId(length: number): string {
  return randomBytes(length).toString('base64url').slice(0, length);
}

/** A channel's uploads playlist id (channels.list contentDetails.relatedPlaylists.uploads): its channel id with UU for UC, as YouTube names them. */
export function uploadsPlaylistOf(channelId: string): string {
  return `UU${channelId.replace(/^UC/, '')}`;
}

function createComment(store: SandboxStore, { account, parent, text, author }: NewComment): SandboxItem {
  const id = parent.kind === 'post' ? `Ugz${youtubeId(20)}` : `${parent.id}.${youtubeId(22)}`;
  return store.add({ platform: 'youtube', account, owner: author, id, kind: 'comment', text, mediaUrls: [], parentId: parent.id, postId: rootPostId(parent), author, extra: {} });
}

/**
 * The comment a commentThreads.insert (under a video) or comments.insert (a reply under a
 * top-level comment) writes as the account: its parent named by the snippet's `parentField`
 * (`notFound` when absent or unknown), its text `textOriginal` of `textHolder`.
 */
function insertComment(store: SandboxStore, account: string, snippet: unknown, parentField: 'videoId' | 'parentId', notFound: string, textHolder: unknown): SandboxItem {
  const parent = existing(store, 'youtube', required(field(snippet, parentField), `snippet.${parentField}`, notFound), notFound);
  const text = required(field(textHolder, 'textOriginal'), 'textOriginal', 'commentTextRequired');
  return createComment(store, { account, parent, text, author: account });
}

/** A comment's moderation status as the owner set it (setModerationStatus); published until then. */
function moderationStatusOf(store: SandboxStore, comment: SandboxItem): string {
  return store.isHidden(comment) ? (comment.extra.moderationStatus ?? 'heldForReview') : 'published';
}

/** The errors of the setModerationStatus and delete pages: 404 commentNotFound, 403 forbidden. */
const YOUTUBE_MODERATION_REFUSALS: ModerationRefusals = {
  notFound: () => new PlatformRefusal(404, 'commentNotFound', 'The comment could not be found.'),
  notAllowed: () => new PlatformRefusal(403, 'forbidden', 'The comment could not be moderated or deleted due to insufficient permissions. The request might not be properly authorized.'),
};


/**
 * A comment resource ("Comments", https://developers.google.com/youtube/v3/docs/comments):
 * snippet.authorDisplayName and snippet.authorChannelId.value (the author's channel id) name its author.
 */
function commentJson(store: SandboxStore, item: SandboxItem) {
  const author = commentAuthor(store, item, (name) => `UC${name}`);
  return {
    kind: 'youtube#comment',
    id: item.id,
    snippet: {
      videoId: item.postId,
      textOriginal: item.text,
      textDisplay: item.text,
      authorDisplayName: author.displayName,
      authorChannelId: { value: author.id },
      publishedAt: item.createdAt,
      ...(item.parentId !== item.postId ? { parentId: item.parentId } : {}),
    },
  };
}

const GOOGLE_AUTH_HELP = 'Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.';

/**
 * Google's 403 for a token without any of the method's scopes ("Authorization" section): reason
 * insufficientPermissions, status PERMISSION_DENIED, ErrorInfo ACCESS_TOKEN_SCOPE_INSUFFICIENT
 * (https://developers.google.com/youtube/v3/docs/errors, google/api/error_reason.proto).
 */
function insufficientScope(): RouteAnswer {
  const message = 'Request had insufficient authentication scopes.';
  return {
    status: 403,
    headers: { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="insufficient_scope"' },
    body: {
      error: {
        code: 403,
        message,
        errors: [{ message: 'Insufficient Permission', domain: 'global', reason: 'insufficientPermissions' }],
        status: 'PERMISSION_DENIED',
        details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT', domain: 'googleapis.com', metadata: { service: 'youtube.googleapis.com', method: 'youtube.api.v3' } }],
      },
    },
  };
}

/**
 * Google's 401: errors[].reason `required` without a token, `authError` ("Invalid
 * Credentials") for a refused one; the google.rpc.ErrorInfo in `details` names the cause
 * where Google does (CREDENTIALS_MISSING, ACCESS_TOKEN_EXPIRED: google/api/error_reason.proto).
 */
function unauthorized(reason: 'missing' | 'unknown' | 'expired' | 'revoked') {
  const missing = reason === 'missing';
  const cause = missing ? 'CREDENTIALS_MISSING' : reason === 'expired' ? 'ACCESS_TOKEN_EXPIRED' : undefined;
  return {
    status: 401,
    headers: { 'www-authenticate': missing ? 'Bearer realm="https://accounts.google.com/"' : 'Bearer realm="https://accounts.google.com/", error="invalid_token"' },
    body: {
      error: {
        code: 401,
        message: missing ? `Request is missing required authentication credential. ${GOOGLE_AUTH_HELP}` : `Request had invalid authentication credentials. ${GOOGLE_AUTH_HELP}`,
        errors: [
          missing
            ? { message: 'Login Required.', domain: 'global', reason: 'required', location: 'Authorization', locationType: 'header' }
            : { message: 'Invalid Credentials', domain: 'global', reason: 'authError', location: 'Authorization', locationType: 'header' },
        ],
        status: 'UNAUTHENTICATED',
        ...(cause ? { details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: cause, domain: 'googleapis.com', metadata: { service: 'youtube.googleapis.com' } }] } : {}),
      },
    },
  };
}

/** videos.insert: "Accepted Media MIME types: video/*, application/octet-stream", "Maximum file size: 256GB". */
const ACCEPTED_TYPE = /^(video\/[\w.+-]+|application\/octet-stream)$/;
const MAX_VIDEO_BYTES = 256 * GIB;
/** Chunks other than the last are multiples of 256 KiB ("Uploading a file in chunks"). */
const CHUNK_UNIT = 256 * 1024;

function headerValue(header: string | string[] | undefined): string | undefined {
  return Array.isArray(header) ? header[0] : header;
}

/**
 * Takes the bytes [first, last] of an upload: contiguous with what it holds (a chunk sent again
 * is taken once). `kept`: Google kept only that many of them (a partial_upload fault); its 308
 * then names less than was sent, and the client resumes from there ("Resumable Uploads", Step 4).
 */
function receiveChunk(upload: SandboxUpload, first: number, last: number, bytes: Buffer, kept = bytes.length): void {
  if (bytes.length !== last - first + 1) throw new PlatformRefusal(400, 'badRequest', 'the body is not the byte range Content-Range names');
  if (first > upload.receivedBytes) throw new PlatformRefusal(400, 'badRequest', `the upload holds ${upload.receivedBytes} bytes; a chunk cannot start at ${first}`);
  if (last + 1 < upload.declaredBytes && bytes.length % CHUNK_UNIT !== 0) {
    throw new PlatformRefusal(400, 'badRequest', `Invalid request. The number of bytes uploaded is required to be a multiple of ${CHUNK_UNIT}, except for the final request. The received request contained ${bytes.length} bytes.`);
  }
  if (first === 0) Object.assign(upload, inspectUpload(bytes));
  upload.receivedBytes = Math.max(upload.receivedBytes, first + Math.min(kept, bytes.length));
}

/** 308 Resume Incomplete, with `Range: bytes=0-{last held}` once any byte is held. */
function resumeIncomplete(upload: SandboxUpload): RouteAnswer {
  const headers: Record<string, string> = upload.receivedBytes > 0 ? { range: `bytes=0-${upload.receivedBytes - 1}` } : {};
  return { status: 308, headers };
}

const VIDEO_SETTINGS = ['privacyStatus', 'tags', 'categoryId', 'selfDeclaredMadeForKids'];

/**
 * What the `videos` resource (https://developers.google.com/youtube/v3/docs/videos) takes besides title and description,
 * refused with videos.insert's documented errors (https://developers.google.com/youtube/v3/docs/videos/insert#errors):
 * status.privacyStatus private, public or unlisted (invalidVideoMetadata), snippet.tags at most 500 characters in all
 * (invalidTags), snippet.categoryId a category id (invalidCategoryId), status.selfDeclaredMadeForKids a boolean; a title
 * with < or > is invalidTitle. Kept on the item as text (tags comma-joined).
 */
function videoSettings(body: unknown): Record<string, string> {
  const snippet = field(body, 'snippet');
  const status = field(body, 'status');
  if (/[<>]/.test(String(field(snippet, 'title') ?? ''))) throw new PlatformRefusal(400, 'invalidTitle', 'The request metadata specifies an invalid video title.');
  const privacyStatus = String(field(status, 'privacyStatus') ?? 'public');
  if (!['private', 'public', 'unlisted'].includes(privacyStatus)) throw new PlatformRefusal(400, 'invalidVideoMetadata', `The request metadata is invalid: status.privacyStatus ${privacyStatus}`);
  const tags = field(snippet, 'tags');
  if (tags !== undefined && (!Array.isArray(tags) || tags.some((tag) => typeof tag !== 'string') || tags.join('').length > 500)) {
    throw new PlatformRefusal(400, 'invalidTags', 'The request metadata specifies invalid video keywords.');
  }
  const categoryId = field(snippet, 'categoryId');
  if (categoryId !== undefined && !/^\d+$/.test(String(categoryId))) throw new PlatformRefusal(400, 'invalidCategoryId', 'The snippet.categoryId property specifies an invalid category ID.');
  const madeForKids = field(status, 'selfDeclaredMadeForKids');
  if (madeForKids !== undefined && typeof madeForKids !== 'boolean') throw new PlatformRefusal(400, 'invalidVideoMetadata', 'The request metadata is invalid: status.selfDeclaredMadeForKids must be a boolean');
  return {
    privacyStatus,
    ...(Array.isArray(tags) ? { tags: tags.join(',') } : {}),
    ...(categoryId !== undefined ? { categoryId: String(categoryId) } : {}),
    ...(madeForKids !== undefined ? { selfDeclaredMadeForKids: String(madeForKids) } : {}),
  };
}

/** The video the completed upload makes; YouTube processes it afterwards. */
function createVideo(store: SandboxStore, account: string, params: Record<string, unknown>, upload: SandboxUpload): SandboxItem {
  store.startProcessing(upload);
  const item = store.add({
    platform: 'youtube', account, owner: account, id: youtubeId(11), kind: 'post', text: String(params.description), mediaUrls: [], media: [upload],
    parentId: null, postId: null, author: account,
    extra: { title: String(params.title), bytes: String(upload.receivedBytes), ...Object.fromEntries(Object.entries(params).filter(([name]) => VIDEO_SETTINGS.includes(name)).map(([name, value]) => [name, String(value)])) },
  });
  upload.attachedTo = item.id;
  return item;
}

/** YouTube Data API v3: resumable video upload (in chunks, with its 308 answers), commentThreads and comments, a channel's uploads playlist (channels.list is with the sign-in routes). */
export const youtubeDialect: PlatformDialect = {
  platform: 'youtube',
  error: (status, code, message) => ({
    status,
    body: { error: { code: status, message, errors: [{ message, domain: 'youtube.api', reason: code ?? DEFAULT_REASONS[status] ?? 'backendError' }] } },
  }),
  rateLimited: (resetAfterSeconds) => ({
    status: 429,
    headers: { 'retry-after': String(resetAfterSeconds) },
    body: { error: { code: 429, message: 'Rate limit exceeded', errors: [{ message: 'Rate limit exceeded', domain: 'usageLimits', reason: 'rateLimitExceeded' }] } },
  }),
  insufficientScope,
  unauthorized,
  createComment,
  routes: [
    {
      // "Resumable Uploads", Step 1 (https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol).
      method: 'POST',
      url: '/upload/youtube/v3/videos',
      operation: 'upload_session',
      handle: ({ store, account, query, body, headers, baseUrl }) => {
        if (query.uploadType !== 'resumable') throw new PlatformRefusal(400, 'badRequest', 'the sandbox supports uploadType=resumable');
        const title = required(field(field(body, 'snippet'), 'title'), 'snippet.title', 'invalidTitle');
        if ([...title].length > 100) throw new PlatformRefusal(400, 'invalidTitle', 'The request metadata specifies an invalid video title.');
        const declaredType = headerValue(headers['x-upload-content-type']);
        if (declaredType && !ACCEPTED_TYPE.test(declaredType)) throw new PlatformRefusal(400, 'badContent', `Media type '${declaredType}' is not supported. Valid media types: [video/*, application/octet-stream]`);
        const declaredLength = Number(headerValue(headers['x-upload-content-length']) ?? Number.NaN);
        if (declaredLength > MAX_VIDEO_BYTES) throw new PlatformRefusal(400, 'uploadLimitExceeded', 'The video is larger than the 256 GB YouTube takes.');
        const uploadId = `upl-${store.nextSeq()}`;
        store.pending.set(uploadId, { platform: 'youtube', account, owner: account, params: { title, description: String(field(field(body, 'snippet'), 'description') ?? ''), ...videoSettings(body) }, consumedBy: null });
        store.addUpload({
          platform: 'youtube', account, id: uploadId, contentType: declaredType ?? 'application/octet-stream', declaredBytes: Number.isSafeInteger(declaredLength) ? declaredLength : -1,
          receivedBytes: 0, width: null, height: null, durationSeconds: null, altText: null, state: 'uploading', readyAt: Number.POSITIVE_INFINITY,
        });
        return { headers: { location: `${baseUrl}/upload/youtube/v3/videos?uploadType=resumable&upload_id=${uploadId}` } };
      },
    },
    {
      // Steps 3-4 and "Uploading a file in chunks": the whole file, or chunks (multiples of 256 KiB
      // but the last) each answered 308 Resume Incomplete with the Range held; `bytes */total` asks
      // for that status. The PUT that completes the upload creates the video: the 'publish'.
      method: 'PUT',
      url: '/upload/youtube/v3/videos',
      operation: ({ store, query, headers, body }) => {
        const upload = store.upload('youtube', query.upload_id ?? '');
        const range = contentRange(headers['content-range']);
        if (!upload || (range && range.last === null)) return 'upload';
        const last = range?.last ?? (Buffer.isBuffer(body) ? body.length - 1 : -1);
        return last + 1 === (range?.total ?? upload.declaredBytes) || upload.receivedBytes === upload.declaredBytes ? 'publish' : 'upload';
      },
      handle: ({ store, account, query, headers, body, keptBytes }) => {
        const session = store.pending.get(query.upload_id ?? '');
        const upload = store.upload('youtube', query.upload_id ?? '');
        if (!session || !upload || session.account !== account) throw new PlatformRefusal(404, 'notFound', 'upload session not found');
        const bytes = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
        const range = headers['content-range'] === undefined ? { first: 0, last: bytes.length - 1, total: bytes.length } : contentRange(headers['content-range']);
        if (!range || (upload.declaredBytes >= 0 && range.total !== upload.declaredBytes)) throw new PlatformRefusal(400, 'badRequest', 'Content-Range does not match the upload');
        if (range.total === 0) throw new PlatformRefusal(400, 'mediaBodyRequired', 'The request does not include the video content.');
        upload.declaredBytes = range.total;
        if (range.first !== null && range.last !== null) receiveChunk(upload, range.first, range.last, bytes, keptBytes);
        if (upload.receivedBytes < upload.declaredBytes) return resumeIncomplete(upload);
        const item = session.consumedBy ? existing(store, 'youtube', session.consumedBy) : createVideo(store, account, session.params, upload);
        session.consumedBy = item.id;
        return {
          status: 201,
          body: {
            kind: 'youtube#video',
            id: item.id,
            snippet: { title: item.extra.title, description: item.text },
            status: { uploadStatus: 'uploaded', privacyStatus: 'public' },
            processingDetails: { processingStatus: store.upload('youtube', upload.id)?.state === 'ready' ? 'succeeded' : 'processing' },
          },
        };
      },
    },
    {
      method: 'POST',
      url: '/youtube/v3/commentThreads',
      operation: 'comment',
      handle: ({ store, account, body }) => {
        const snippet = field(body, 'snippet');
        const comment = insertComment(store, account, snippet, 'videoId', 'videoNotFound', field(field(snippet, 'topLevelComment'), 'snippet'));
        return { body: { kind: 'youtube#commentThread', id: comment.id, snippet: { videoId: comment.parentId, topLevelComment: commentJson(store, comment) } } };
      },
    },
    {
      method: 'POST',
      url: '/youtube/v3/comments',
      operation: 'comment',
      handle: ({ store, account, body }) => {
        const snippet = field(body, 'snippet');
        return { body: commentJson(store, insertComment(store, account, snippet, 'parentId', 'parentCommentNotFound', snippet)) };
      },
    },
    {
      // "Videos: list" (https://developers.google.com/youtube/v3/docs/videos/list): part (statistics: viewCount,
      // likeCount, favoriteCount, commentCount as strings, https://developers.google.com/youtube/v3/docs/videos#statistics),
      // id (comma-separated); an id that names no video is left out of `items`.
      method: 'GET',
      url: '/youtube/v3/videos',
      operation: 'metrics',
      handle: ({ store, query }) => {
        const parts = required(query.part, 'part', 'required').split(',');
        const ids = required(query.id, 'id', 'required').split(',');
        const items = ids.flatMap((id) => {
          const video = store.find('youtube', id);
          if (!video || video.kind !== 'post') return [];
          const counts = itemCounts(store, video);
          const statistics = { viewCount: String(counts.views), likeCount: String(counts.likes), favoriteCount: '0', commentCount: String(counts.comments) };
          return [{ kind: 'youtube#video', id: video.id, ...(parts.includes('statistics') ? { statistics } : {}) }];
        });
        return { body: { kind: 'youtube#videoListResponse', pageInfo: { totalResults: items.length, resultsPerPage: items.length }, items } };
      },
    },
    {
      // "PlaylistItems: list" (https://developers.google.com/youtube/v3/docs/playlistItems/list): playlistId, part
      // snippet/contentDetails, maxResults 0-50 (default 5), pageToken / nextPageToken; the uploads playlist newest first.
      method: 'GET',
      url: '/youtube/v3/playlistItems',
      operation: 'lookup',
      handle: ({ store, query }) => {
        const playlistId = required(query.playlistId, 'playlistId', 'playlistIdRequired');
        const channel = [`UC${playlistId.slice(2)}`, playlistId.slice(2)].map((id) => store.auth.byPlatformId('youtube', id)).find((found) => found && uploadsPlaylistOf(found.platformAccountId) === playlistId);
        if (!channel) throw new PlatformRefusal(404, 'playlistNotFound', `The playlist identified with the request's playlistId parameter cannot be found.`);
        const refusal = (message: string) => new PlatformRefusal(400, 'invalidParameter', message);
        const { page, next } = pageOf(store.postsOf('youtube', channel.key), query.pageToken, pageSize(query.maxResults, { min: 0, max: 50, default: 5 }, refusal), refusal);
        const items = page.map((video, index) => ({
          kind: 'youtube#playlistItem',
          id: `${playlistId}.${video.id}`,
          snippet: {
            publishedAt: video.createdAt, channelId: channel.platformAccountId, title: video.extra.title, description: video.text, playlistId, position: index,
            resourceId: { kind: 'youtube#video', videoId: video.id },
          },
          contentDetails: { videoId: video.id, videoPublishedAt: video.createdAt },
        }));
        return { body: { kind: 'youtube#playlistItemListResponse', ...(next ? { nextPageToken: next } : {}), pageInfo: { totalResults: items.length, resultsPerPage: items.length }, items } };
      },
    },
    {
      // "Comments: setModerationStatus" (https://developers.google.com/youtube/v3/docs/comments/setModerationStatus):
      // youtube.force-ssl, by the owner of the comments' video; heldForReview / published / rejected, and
      // "You can't change the moderation status of a rejected comment to published". Answers 204.
      method: 'POST',
      url: '/youtube/v3/comments/setModerationStatus',
      operation: 'hide_comment',
      handle: (ctx) => {
        const status = required(ctx.query.moderationStatus, 'moderationStatus', 'invalidModerationStatus');
        if (!['heldForReview', 'published', 'rejected'].includes(status)) throw new PlatformRefusal(400, 'invalidModerationStatus', `Invalid moderationStatus ${status}`);
        const comments = required(ctx.query.id, 'id', 'idRequired').split(',').map((id) => commentOnOwnPost(ctx, 'youtube', id, YOUTUBE_MODERATION_REFUSALS));
        for (const comment of comments) {
          if (status === 'published' && comment.extra.moderationStatus === 'rejected') throw new PlatformRefusal(400, 'processingFailure', "You can't change the moderation status of a rejected comment to published.");
        }
        for (const comment of comments) {
          comment.extra.moderationStatus = status;
          ctx.store.setHidden(comment, status !== 'published');
        }
        return { status: 204 };
      },
    },
    {
      // "Comments: delete" (https://developers.google.com/youtube/v3/docs/comments/delete): youtube.force-ssl;
      // "can only be used by the comment's original author" (setModerationStatus page). Answers 204.
      method: 'DELETE',
      url: '/youtube/v3/comments',
      operation: 'delete_comment',
      handle: (ctx) => {
        ctx.store.remove(ownComment(ctx, 'youtube', required(ctx.query.id, 'id', 'idRequired'), YOUTUBE_MODERATION_REFUSALS));
        return { status: 204 };
      },
    },
    {
      method: 'GET',
      url: '/youtube/v3/commentThreads',
      operation: 'list_comments',
      handle: ({ store, query }) => {
        const video = existing(store, 'youtube', query.videoId ?? '', 'videoNotFound');
        // "CommentThreads: list": moderationStatus limits the threads to one status, "published" by default,
        // so held and rejected comments leave the default listing.
        const status = query.moderationStatus ?? 'published';
        const all = store.commentsUnder('youtube', video.id).filter((comment) => moderationStatusOf(store, comment) === status);
        return {
          body: {
            kind: 'youtube#commentThreadListResponse',
            items: all
              .filter((comment) => comment.parentId === video.id)
              .map((top) => ({
                kind: 'youtube#commentThread',
                id: top.id,
                snippet: { videoId: video.id, topLevelComment: commentJson(store, top) },
                replies: { comments: all.filter((reply) => reply.parentId === top.id).map((reply) => commentJson(store, reply)) },
              })),
          },
        };
      },
    },
  ],
};

import { randomBytes } from 'node:crypto';
import { existing, field, NewComment, PlatformDialect, PlatformRefusal, required, rootPostId } from '../dialect';
import type { SandboxItem, SandboxStore } from '../store';

const DEFAULT_REASONS: Record<number, string> = { 400: 'badRequest', 401: 'authError', 403: 'forbidden', 404: 'notFound', 500: 'backendError', 503: 'backendError' };

function youtubeId(length: number): string {
  return randomBytes(length).toString('base64url').slice(0, length);
}

function createComment(store: SandboxStore, { account, parent, text, author }: NewComment): SandboxItem {
  const id = parent.kind === 'post' ? `Ugz${youtubeId(20)}` : `${parent.id}.${youtubeId(22)}`;
  return store.add({ platform: 'youtube', account, owner: author, id, kind: 'comment', text, mediaUrls: [], parentId: parent.id, postId: rootPostId(parent), author, extra: {} });
}

function commentJson(item: SandboxItem) {
  return {
    kind: 'youtube#comment',
    id: item.id,
    snippet: {
      videoId: item.postId,
      textOriginal: item.text,
      textDisplay: item.text,
      authorDisplayName: item.author,
      publishedAt: item.createdAt,
      ...(item.parentId !== item.postId ? { parentId: item.parentId } : {}),
    },
  };
}

const GOOGLE_AUTH_HELP = 'Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.';

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

/** YouTube Data API v3: resumable video upload, commentThreads and comments. */
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
  unauthorized,
  createComment,
  routes: [
    {
      method: 'POST',
      url: '/upload/youtube/v3/videos',
      operation: 'upload_session',
      handle: ({ store, account, query, body, baseUrl }) => {
        if (query.uploadType !== 'resumable') throw new PlatformRefusal(400, 'badRequest', 'the sandbox supports uploadType=resumable');
        const title = required(field(field(body, 'snippet'), 'title'), 'snippet.title', 'invalidTitle');
        if ([...title].length > 100) throw new PlatformRefusal(400, 'invalidTitle', 'The request metadata specifies an invalid video title.');
        const uploadId = `upl-${store.nextSeq()}`;
        store.pending.set(uploadId, { platform: 'youtube', account, owner: account, params: { title, description: String(field(field(body, 'snippet'), 'description') ?? '') }, consumedBy: null });
        return { headers: { location: `${baseUrl}/upload/youtube/v3/videos?uploadType=resumable&upload_id=${uploadId}` } };
      },
    },
    {
      method: 'PUT',
      url: '/upload/youtube/v3/videos',
      operation: 'publish',
      handle: ({ store, account, query, body }) => {
        const session = store.pending.get(query.upload_id ?? '');
        if (!session || session.account !== account) throw new PlatformRefusal(404, 'notFound', 'upload session not found');
        if (!(body instanceof Buffer) || body.length === 0) throw new PlatformRefusal(400, 'badRequest', 'the upload has no video bytes');
        const item = session.consumedBy
          ? existing(store, 'youtube', session.consumedBy)
          : store.add({ platform: 'youtube', account, owner: account, id: youtubeId(11), kind: 'post', text: String(session.params.description), mediaUrls: [], parentId: null, postId: null, author: account, extra: { title: String(session.params.title), bytes: String(body.length) } });
        session.consumedBy = item.id;
        return { body: { kind: 'youtube#video', id: item.id, snippet: { title: item.extra.title, description: item.text }, status: { uploadStatus: 'uploaded', privacyStatus: 'public' } } };
      },
    },
    {
      method: 'POST',
      url: '/youtube/v3/commentThreads',
      operation: 'comment',
      handle: ({ store, account, body }) => {
        const snippet = field(body, 'snippet');
        const video = existing(store, 'youtube', required(field(snippet, 'videoId'), 'snippet.videoId', 'videoNotFound'), 'videoNotFound');
        const text = required(field(field(field(snippet, 'topLevelComment'), 'snippet'), 'textOriginal'), 'textOriginal', 'commentTextRequired');
        const comment = createComment(store, { account, parent: video, text, author: account });
        return { body: { kind: 'youtube#commentThread', id: comment.id, snippet: { videoId: video.id, topLevelComment: commentJson(comment) } } };
      },
    },
    {
      method: 'POST',
      url: '/youtube/v3/comments',
      operation: 'comment',
      handle: ({ store, account, body }) => {
        const snippet = field(body, 'snippet');
        const parent = existing(store, 'youtube', required(field(snippet, 'parentId'), 'snippet.parentId', 'parentCommentNotFound'), 'parentCommentNotFound');
        const comment = createComment(store, { account, parent, text: required(field(snippet, 'textOriginal'), 'textOriginal', 'commentTextRequired'), author: account });
        return { body: commentJson(comment) };
      },
    },
    {
      method: 'GET',
      url: '/youtube/v3/commentThreads',
      operation: 'list_comments',
      handle: ({ store, query }) => {
        const video = existing(store, 'youtube', query.videoId ?? '', 'videoNotFound');
        const all = store.commentsUnder('youtube', video.id);
        return {
          body: {
            kind: 'youtube#commentThreadListResponse',
            items: all
              .filter((comment) => comment.parentId === video.id)
              .map((top) => ({
                kind: 'youtube#commentThread',
                id: top.id,
                snippet: { videoId: video.id, topLevelComment: commentJson(top) },
                replies: { comments: all.filter((reply) => reply.parentId === top.id).map(commentJson) },
              })),
          },
        };
      },
    },
  ],
};

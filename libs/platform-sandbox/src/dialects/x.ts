import { xWeightedLength } from '@app/platforms/content/text-length';
import { existing, field, NewComment, PlatformDialect, PlatformRefusal, PlatformRoute, required, resetEpochSeconds, RouteAnswer, rootPostId } from '../dialect';
import { isSandboxFilePart, SandboxFilePart } from '../multipart';
import { namedToFailProcessing, SandboxItem, SandboxStore, SandboxUpload } from '../store';
import { GIB, inspectUpload, MIB } from './uploaded-media';
import { createdSince, pageOf, pageSize } from './listing';
import { commentAuthor } from './comment-author';
import { commentOnOwnPost, ModerationRefusals, ownComment } from './moderation';
import { itemCounts } from './metrics-growth';

const TITLES: Record<number, string> = { 400: 'Invalid Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 429: 'Too Many Requests', 500: 'Internal Server Error', 503: 'Service Unavailable' };

function postId(store: SandboxStore): string {
  return String(1_790_000_000_000_000_000n + BigInt(store.nextSeq()));
}

function createComment(store: SandboxStore, { account, parent, text, author, media }: NewComment): SandboxItem {
  return store.add({ platform: 'x', account, owner: author, id: postId(store), kind: 'comment', text, mediaUrls: [], media, parentId: parent.id, postId: rootPostId(parent), author, extra: {} });
}


/**
 * What each media_category takes ("Best practices", https://docs.x.com/x-api/media/quickstart/best-practices,
 * default accounts; media types from "Initialize media upload", https://docs.x.com/x-api/media/initialize-media-upload).
 */
const CATEGORIES: Record<string, { types: readonly string[]; maxBytes: number; processed: boolean }> = {
  tweet_image: { types: ['image/jpeg', 'image/png', 'image/webp', 'image/bmp', 'image/pjpeg', 'image/tiff'], maxBytes: 5 * MIB, processed: false },
  tweet_gif: { types: ['image/gif'], maxBytes: 15 * MIB, processed: true },
  tweet_video: { types: ['video/mp4', 'video/webm', 'video/mp2t', 'video/quicktime'], maxBytes: 8 * GIB, processed: true },
  amplify_video: { types: ['video/mp4', 'video/webm', 'video/mp2t', 'video/quicktime'], maxBytes: 8 * GIB, processed: true },
};
/** "Upload media" (https://docs.x.com/x-api/media/upload-media) takes images (and subtitles) only: GIFs and videos go in chunks. */
const SINGLE_REQUEST_CATEGORIES = ['tweet_image', 'dm_image', 'subtitles'];
/** An APPEND segment "must be <= 5 MB" (POST media/upload (APPEND)); segment_index is 0 to 999 ("Append Media upload"). */
const MAX_SEGMENT_BYTES = 5 * MIB;
const MAX_SEGMENT_INDEX = 999;
const MAX_ALT_TEXT = 1_000;
const REPLY_SETTINGS = ['following', 'mentionedUsers', 'subscribers', 'verified'];
const UPLOAD_LIFETIME_SECS = 86_400;

/** X's problems for a post it cannot find, or one the user may not hide or delete. */
const X_MODERATION_REFUSALS: ModerationRefusals = {
  notFound: (id) => new PlatformRefusal(404, 'resource-not-found', `Could not find tweet with id: [${id}].`),
  notAllowed: () => new PlatformRefusal(403, undefined, 'You are not allowed to hide or delete this Tweet: it is not yours or not in a conversation you started.'),
};


function invalid(detail: string): PlatformRefusal {
  return new PlatformRefusal(400, 'invalid-request', detail);
}

function mediaId(store: SandboxStore): string {
  return String(1_880_000_000_000_000_000n + BigInt(store.nextSeq()));
}

/** An upload of this account, or the invalid-request problem X answers for a media id it does not know. */
function ownUpload(store: SandboxStore, account: string, id: unknown): SandboxUpload {
  const upload = typeof id === 'string' ? store.upload('x', id) : undefined;
  if (!upload || upload.account !== account) throw invalid(`The media_id ${String(id)} is not a valid media id for this user`);
  return upload;
}

/**
 * The media object X answers for an upload (data: id, media_key, size, expires_after_secs and,
 * while X processes a GIF or video, processing_info: state pending → in_progress → succeeded |
 * failed with check_after_secs; "Finalize Media upload", https://docs.x.com/x-api/media/media-upload-finalize).
 */
function uploadAnswer(upload: SandboxUpload): RouteAnswer {
  const data: Record<string, unknown> = { id: upload.id, media_key: upload.extra.mediaKey, size: upload.receivedBytes, expires_after_secs: UPLOAD_LIFETIME_SECS };
  if (upload.extra.processed === 'true') data.processing_info = processingInfo(upload);
  return { body: { data } };
}

function processingInfo(upload: SandboxUpload): Record<string, unknown> {
  if (upload.state === 'ready') return { state: 'succeeded', progress_percent: 100 };
  // The STATUS command's failed example (GET media/upload (STATUS)): an error with code, name and message.
  if (upload.state === 'failed') return { state: 'failed', progress_percent: 100, error: { code: 1, name: 'InvalidMedia', message: upload.failure } };
  const left = upload.readyAt - Date.now();
  return { state: 'in_progress', check_after_secs: Math.max(1, Math.ceil(left / 1000)), progress_percent: 50 };
}

function filePart(body: unknown, name: string): SandboxFilePart {
  const part = field(body, name);
  if (!isSandboxFilePart(part)) throw invalid(`${name} is required and must be a file`);
  return part;
}

/**
 * The media a Post names (`media.media_ids`, 1 to 4, "Create Post", https://docs.x.com/x-api/posts/create-post):
 * each must be this user's, processed, and a GIF or video the Post's only item ("You may attach up to
 * 4 photos, 1 animated GIF or 1 video in a Post"). X refuses anything else as invalid media ids.
 */
function attachableMedia(store: SandboxStore, account: string, media: unknown): SandboxUpload[] | RouteAnswer {
  if (media === undefined) return [];
  const ids = field(media, 'media_ids');
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > 4 || ids.some((id) => typeof id !== 'string' || !/^\d{1,19}$/.test(id))) {
    throw invalid('media.media_ids must hold 1 to 4 media ids');
  }
  const uploads = ids.map((id: string) => store.upload('x', id));
  const usable = uploads.every((upload) => upload?.account === account && upload.state === 'ready');
  const alone = uploads.length === 1 || uploads.every((upload) => upload?.extra.category === 'tweet_image');
  if (usable && alone) return uploads as SandboxUpload[];
  // As X answers a media id still processing, failed, unknown or not combinable (see e.g. abraham/twitteroauth#1222).
  return {
    status: 400,
    body: {
      errors: [{ parameters: { 'media.media_ids': ids }, message: 'Your media IDs are invalid.' }],
      title: 'Invalid Request',
      detail: 'One or more parameters to your request was invalid.',
      type: 'https://api.twitter.com/2/problems/invalid-request',
    },
  };
}

/**
 * X's media upload v2 (https://docs.x.com/x-api/media/introduction): images in one request, GIFs
 * and videos in chunks (initialize, append, finalize), processed asynchronously (STATUS), alt
 * text through media metadata. Processing fails for a file named to fail (namedToFailProcessing in store.ts).
 */
const MEDIA_ROUTES: PlatformRoute[] = [
  {
    method: 'POST',
    url: '/2/media/upload',
    operation: 'upload',
    // "Upload media" (https://docs.x.com/x-api/media/upload-media): multipart media + media_category (+ media_type).
    handle: ({ store, account, body }) => {
      const media = filePart(body, 'media');
      const category = required(field(body, 'media_category'), 'media_category', 'invalid-request');
      if (!SINGLE_REQUEST_CATEGORIES.includes(category)) {
        throw invalid(`media_category must be one of ${SINGLE_REQUEST_CATEGORIES.join(', ')}; GIFs and videos use the chunked upload`);
      }
      const found = inspectUpload(media.head);
      const rule = CATEGORIES.tweet_image;
      if (!rule.types.includes(found.contentType)) throw invalid(`media type ${found.contentType} is not supported for ${category}`);
      if (media.size > rule.maxBytes) throw invalid(`File size exceeds ${rule.maxBytes} bytes.`);
      const id = mediaId(store);
      const upload = store.addUpload({
        platform: 'x', account, id, ...found, declaredBytes: media.size, receivedBytes: media.size,
        altText: null, state: 'ready', readyAt: Date.now(),
        extra: { mediaKey: `3_${id}`, category, fileName: media.filename },
      });
      return uploadAnswer(upload);
    },
  },
  {
    method: 'POST',
    url: '/2/media/upload/initialize',
    operation: 'upload',
    // "Initialize media upload" (https://docs.x.com/x-api/media/initialize-media-upload): media_type, total_bytes, media_category.
    handle: ({ store, account, body }) => {
      const type = required(field(body, 'media_type'), 'media_type', 'invalid-request');
      const total = field(body, 'total_bytes');
      const category = field(body, 'media_category') ?? (type === 'image/gif' ? 'tweet_gif' : type.startsWith('video/') ? 'tweet_video' : 'tweet_image');
      const rule = typeof category === 'string' ? CATEGORIES[category] : undefined;
      if (!rule) throw invalid(`media_category must be one of ${Object.keys(CATEGORIES).join(', ')}`);
      if (!rule.types.includes(type)) throw invalid(`media_type ${type} is not valid for media_category ${String(category)}`);
      if (typeof total !== 'number' || !Number.isSafeInteger(total) || total <= 0) throw invalid('total_bytes must be a positive integer');
      if (total > rule.maxBytes) throw invalid(`total_bytes ${total} exceeds the ${rule.maxBytes} bytes ${String(category)} takes`);
      const id = mediaId(store);
      const upload = store.addUpload({
        platform: 'x', account, id, contentType: type, declaredBytes: total, receivedBytes: 0,
        width: null, height: null, durationSeconds: null, altText: null, state: 'uploading', readyAt: Number.POSITIVE_INFINITY,
        extra: { mediaKey: `${type.startsWith('video/') ? 7 : 16}_${id}`, category: String(category), processed: String(rule.processed), segments: '{}' },
      });
      return { body: { data: { id, media_key: upload.extra.mediaKey, expires_after_secs: UPLOAD_LIFETIME_SECS } } };
    },
  },
  {
    method: 'POST',
    url: '/2/media/upload/:id/append',
    operation: 'upload',
    // "Append Media upload" (https://docs.x.com/x-api/media/append-media-upload): multipart media + segment_index.
    handle: ({ store, account, params, body }) => {
      const upload = ownUpload(store, account, params.id);
      if (upload.state !== 'uploading') throw invalid(`media ${upload.id} was finalized; no segment can be appended`);
      const media = filePart(body, 'media');
      const index = Number(field(body, 'segment_index'));
      if (!Number.isInteger(index) || index < 0 || index > MAX_SEGMENT_INDEX) throw invalid(`segment_index must be an integer from 0 to ${MAX_SEGMENT_INDEX}`);
      if (media.size > MAX_SEGMENT_BYTES) throw invalid(`a segment must be <= ${MAX_SEGMENT_BYTES} bytes`);
      // A segment sent again replaces the first copy (chunks "can be retried individually").
      const segments: Record<string, number> = JSON.parse(upload.extra.segments);
      segments[index] = media.size;
      upload.extra.segments = JSON.stringify(segments);
      upload.receivedBytes = Object.values(segments).reduce((sum, size) => sum + size, 0);
      if (index === 0) {
        const found = inspectUpload(media.head);
        Object.assign(upload, { width: found.width, height: found.height, durationSeconds: found.durationSeconds });
        upload.extra.sniffedType = found.contentType;
        upload.extra.fileName = media.filename;
      }
      return { status: 200, body: { data: { expires_at: Math.floor(Date.now() / 1000) + UPLOAD_LIFETIME_SECS } } };
    },
  },
  {
    method: 'POST',
    url: '/2/media/upload/:id/finalize',
    operation: 'upload',
    // "Finalize Media upload" (https://docs.x.com/x-api/media/media-upload-finalize): processing_info while X processes it.
    handle: ({ store, account, params }) => {
      const upload = ownUpload(store, account, params.id);
      if (upload.state !== 'uploading') throw invalid(`media ${upload.id} was finalized already`);
      // The legacy error X gives when the segments and total_bytes disagree.
      if (upload.receivedBytes !== upload.declaredBytes) throw invalid('Segments do not add up to provided total file size.');
      // Bytes that are not the declared media_type fail processing, as X fails an unsupported file.
      const unsupported = upload.extra.sniffedType !== upload.contentType || namedToFailProcessing(upload.extra.fileName ?? '');
      if (upload.extra.processed === 'true') store.startProcessing(upload, unsupported ? 'Unsupported video format' : null);
      else upload.state = 'ready';
      return uploadAnswer(upload);
    },
  },
  {
    method: 'GET',
    url: '/2/media/upload',
    operation: 'upload_status',
    // "Get Media upload status" (https://docs.x.com/x-api/media/get-media-upload-status): command=STATUS&media_id=.
    handle: ({ store, account, query }) => {
      if (query.command !== 'STATUS') throw invalid('command must be STATUS');
      const upload = ownUpload(store, account, query.media_id);
      if (upload.state === 'uploading') throw invalid(`media ${upload.id} has not been finalized`);
      return uploadAnswer(upload);
    },
  },
  {
    method: 'POST',
    url: '/2/media/metadata',
    operation: 'upload',
    // "Create Media metadata" (https://docs.x.com/x-api/media/create-media-metadata): metadata.alt_text.text, at most 1,000 characters.
    handle: ({ store, account, body }) => {
      const upload = ownUpload(store, account, field(body, 'id'));
      const text = field(field(field(body, 'metadata'), 'alt_text'), 'text');
      if (typeof text !== 'string') throw invalid('metadata.alt_text.text is required');
      if ([...text].length > MAX_ALT_TEXT) throw invalid(`metadata.alt_text.text must be at most ${MAX_ALT_TEXT} characters`);
      upload.altText = text;
      return { body: { data: { id: upload.id, associated_metadata: { alt_text: { text } } } } };
    },
  },
];

/** X API v2: POST /2/tweets, recent search by conversation_id, a user's posts, media upload. Errors are RFC 7807 problems. */
export const xDialect: PlatformDialect = {
  platform: 'x',
  error: (status, code, message) => ({
    status,
    body: {
      title: TITLES[status] ?? 'Error',
      type: code ? `https://api.twitter.com/2/problems/${code}` : 'about:blank',
      status,
      detail: message,
    },
  }),
  rateLimited: (resetAfterSeconds) => ({
    status: 429,
    headers: { 'x-rate-limit-limit': '100', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': String(resetEpochSeconds(resetAfterSeconds)) },
    body: { title: 'Too Many Requests', type: 'about:blank', status: 429, detail: 'Too Many Requests' },
  }),
  // A token without a scope the endpoint's "Authorization" section lists: 403 Forbidden, as a problem (https://docs.x.com/x-api/fundamentals/response-codes-and-errors).
  insufficientScope: () => ({ status: 403, body: { title: 'Forbidden', type: 'about:blank', status: 403, detail: 'Forbidden' } }),
  // X answers every refused token (unknown, expired, revoked) with the same problem.
  unauthorized: () => ({ status: 401, body: { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' } }),
  createComment,
  routes: [
    ...MEDIA_ROUTES,
    {
      method: 'POST',
      url: '/2/tweets',
      operation: ({ body }) => (field(body, 'reply') ? 'comment' : 'publish'),
      handle: ({ store, account, body }) => {
        const media = attachableMedia(store, account, field(body, 'media'));
        if (!Array.isArray(media)) return media;
        // Text is optional when media is attached ("Create Post", https://docs.x.com/x-api/posts/create-post).
        const text = media.length > 0 && field(body, 'text') === undefined ? '' : required(field(body, 'text'), 'text', 'invalid-request');
        // 280 weighted characters, counted as "Counting characters" documents (https://docs.x.com/fundamentals/counting-characters).
        if (xWeightedLength(text) > 280) throw new PlatformRefusal(400, 'invalid-request', 'Your Tweet text is too long. For more information on how Twitter determines text length see https://github.com/twitter/twitter-text.');
        const replyTo = field(field(body, 'reply'), 'in_reply_to_tweet_id');
        const replySettings = field(body, 'reply_settings');
        // reply_settings: "following", "mentionedUsers", "subscribers" or "verified" ("Create or Edit Post", https://docs.x.com/x-api/posts/create-or-edit-post).
        if (replySettings !== undefined && !REPLY_SETTINGS.includes(String(replySettings))) throw invalid(`reply_settings must be one of ${REPLY_SETTINGS.join(', ')}`);
        const item =
          typeof replyTo === 'string'
            ? // A reply is a Post with reply.in_reply_to_tweet_id, media and all ("Create Post", https://docs.x.com/x-api/posts/create-post).
              createComment(store, { account, parent: existing(store, 'x', replyTo, 'invalid-request'), text, author: account, media })
            : store.add({ platform: 'x', account, owner: account, id: postId(store), kind: 'post', text, mediaUrls: [], media, parentId: null, postId: null, author: account, extra: replySettings === undefined ? {} : { reply_settings: String(replySettings) } });
        for (const upload of media) upload.attachedTo ??= item.id;
        return { status: 201, body: { data: { id: item.id, text: item.text, edit_history_tweet_ids: [item.id] } } };
      },
    },
    {
      // "Hide replies" (https://docs.x.com/x-api/posts/hide-replies/introduction): tweet.moderate.write;
      // "You can only hide replies to conversations you started"; answers {"data": {"hidden"}}.
      method: 'PUT',
      url: '/2/tweets/:id/hidden',
      operation: 'hide_comment',
      handle: (ctx) => {
        const hidden = field(ctx.body, 'hidden');
        if (typeof hidden !== 'boolean') throw invalid('hidden must be a boolean');
        const reply = commentOnOwnPost(ctx, 'x', ctx.params.id, X_MODERATION_REFUSALS);
        ctx.store.setHidden(reply, hidden);
        return { body: { data: { hidden } } };
      },
    },
    {
      // "Get Post by ID" (https://docs.x.com/x-api/posts/get-post-by-id): tweet.read, users.read;
      // `tweet.fields=public_metrics` adds retweet_count, reply_count, like_count, quote_count,
      // bookmark_count and impression_count ("Metrics", https://docs.x.com/x-api/fundamentals/metrics).
      // An unknown id answers 200 with `errors` (Resource Not Found), as X does.
      method: 'GET',
      url: '/2/tweets/:id',
      operation: 'metrics',
      handle: ({ store, params, query }) => {
        const item = store.find('x', params.id);
        if (!item) {
          return { body: { errors: [{ value: params.id, detail: `Could not find tweet with id: [${params.id}].`, title: 'Not Found Error', resource_type: 'tweet', parameter: 'id', resource_id: params.id, type: 'https://api.twitter.com/2/problems/resource-not-found' }] } };
        }
        const fields = (query['tweet.fields'] ?? '').split(',');
        const counts = itemCounts(store, item);
        const public_metrics = { retweet_count: counts.shares, reply_count: counts.comments, like_count: counts.likes, quote_count: counts.quotes, bookmark_count: counts.saves, impression_count: counts.impressions };
        return { body: { data: { id: item.id, text: item.text, edit_history_tweet_ids: [item.id], ...(fields.includes('public_metrics') ? { public_metrics } : {}) } } };
      },
    },
    {
      // "Delete Post" (https://developer.x.com/en/docs/x-api/tweets/manage-tweets/api-reference/delete-tweets-id): tweet.write; the user's own posts only;
      // answers {"data": {"deleted": true}}.
      method: 'DELETE',
      url: '/2/tweets/:id',
      operation: 'delete_comment',
      handle: (ctx) => {
        ctx.store.remove(ownComment(ctx, 'x', ctx.params.id, X_MODERATION_REFUSALS));
        return { body: { data: { deleted: true } } };
      },
    },
    {
      method: 'GET',
      url: '/2/tweets/search/recent',
      operation: 'list_comments',
      handle: ({ store, query }) => {
        const conversation = /^conversation_id:(\d+)$/.exec(query.query ?? '');
        if (!conversation) throw new PlatformRefusal(400, 'invalid-request', 'query must be conversation_id:<id> in the sandbox');
        const replies = store.commentsUnder('x', conversation[1]);
        // author_id is the writer's user id; with expansions=author_id, includes.users holds each
        // writer's {id, username, name} ("Search Posts", recent search quick start:
        // https://docs.x.com/x-api/posts/search/quickstart/recent-search).
        const authors = new Map(replies.map((item) => [item.id, commentAuthor(store, item, (name) => `u-${name}`)]));
        const users = new Map([...authors.values()].map((author) => [author.id, { id: author.id, username: author.handle, name: author.displayName }]));
        return {
          body: {
            data: replies.map((item) => ({
              id: item.id,
              text: item.text,
              author_id: authors.get(item.id)?.id,
              created_at: item.createdAt,
              conversation_id: conversation[1],
              referenced_tweets: [{ type: 'replied_to', id: item.parentId }],
            })),
            includes: { users: [...users.values()] },
            meta: { result_count: replies.length },
          },
        };
      },
    },
    {
      method: 'GET',
      url: '/2/users/:id/tweets',
      operation: 'lookup',
      // User Posts timeline ("Get Posts by User", https://docs.x.com/x-api/posts/get-posts-by-user): `id` is a numeric
      // user id; a handle there is an invalid parameter, an unknown id a not-found error.
      handle: ({ store, identity, params, query }) => {
        const { id } = params;
        if (!/^\d{1,19}$/.test(id)) {
          return {
            status: 400,
            body: {
              errors: [{ parameters: { id: [id] }, message: `The \`id\` query parameter value [${id}] is not valid` }],
              title: 'Invalid Request',
              detail: 'One or more parameters to your request was invalid.',
              type: 'https://api.twitter.com/2/problems/invalid-request',
            },
          };
        }
        const user = identity?.platformAccountId === id ? identity : store.auth.byPlatformId('x', id);
        if (!user) {
          const notFound = { value: id, detail: `Could not find user with id: [${id}].`, title: 'Not Found Error', resource_type: 'user', parameter: 'id', resource_id: id, type: 'https://api.twitter.com/2/problems/resource-not-found' };
          return { body: { errors: [notFound] } };
        }
        // max_results 5-100 (default 10), start_time (ISO 8601, by creation), pagination_token from meta.next_token;
        // created_at and attachments only when tweet.fields asks for them; newest first.
        const size = pageSize(query.max_results, { min: 5, max: 100, default: 10 }, invalid);
        const since = query.start_time === undefined ? null : Date.parse(query.start_time);
        if (since !== null && !Number.isFinite(since)) throw invalid(`start_time ${query.start_time} is not an ISO 8601 time`);
        const fields = new Set((query['tweet.fields'] ?? '').split(',').filter(Boolean));
        const { page, next } = pageOf(createdSince(store.postsOf('x', user.key), since), query.pagination_token, size, invalid);
        const posts = page.map((item) => ({
          id: item.id,
          text: item.text,
          edit_history_tweet_ids: [item.id],
          ...(fields.has('created_at') ? { created_at: item.createdAt } : {}),
          ...(fields.has('attachments') && item.media.length > 0 ? { attachments: { media_keys: item.media.map((upload) => upload.extra.mediaKey) } } : {}),
        }));
        const meta = { result_count: posts.length, ...(posts.length > 0 ? { newest_id: posts[0].id, oldest_id: posts[posts.length - 1].id } : {}), ...(next ? { next_token: next } : {}) };
        return { body: posts.length > 0 ? { data: posts, meta } : { meta } };
      },
    },
  ],
};

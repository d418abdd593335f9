import { describeSandboxMedia } from '../media-host';
import { field, PlatformDialect, PlatformRefusal, required } from '../dialect';
import type { RouteContext } from '../dialect';
import type { SandboxItem, SandboxStore, SandboxUpload } from '../store';
import { contentRange, GIB, inspectUpload, MIB } from './uploaded-media';
import { itemCounts } from './metrics-growth';

const DEFAULT_CODES: Record<number, string> = { 400: 'invalid_params', 401: 'access_token_invalid', 403: 'scope_not_authorized', 404: 'invalid_params', 429: 'rate_limit_exceeded', 500: 'internal_error', 503: 'internal_error' };

/** Media Transfer Guide (https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide), "Chunk restrictions". */
const CHUNK_MIN_BYTES = 5 * MIB;
const CHUNK_MAX_BYTES = 64 * MIB;
const FINAL_CHUNK_MAX_BYTES = 128 * MIB;
const MAX_CHUNKS = 1000;
/** Its "Video restrictions" and "Image restrictions". */
const VIDEO_TYPES = ['video/mp4', 'video/quicktime', 'video/webm'];
const VIDEO_MAX_BYTES = 4 * GIB;
const VIDEO_MAX_SECONDS = 600;
const PICTURE_MIN_PX = 360;
const PICTURE_MAX_PX = 4096;
const PHOTO_TYPES = ['image/jpeg', 'image/webp'];
const PHOTO_MAX_BYTES = 20 * MIB;
/** Direct Post, photo_images: up to 35. */
const PHOTOS_MAX = 35;

function answer(data: unknown) {
  return { data, error: { code: 'ok', message: '', log_id: `sandbox${Date.now()}` } };
}

function invalid(message: string): PlatformRefusal {
  return new PlatformRefusal(400, 'invalid_params', message);
}

/** Query Creator Info: what a public creator may post with (a private one has FOLLOWER_OF_CREATOR instead of PUBLIC_TO_EVERYONE). */
const PUBLIC_CREATOR_PRIVACY_LEVELS = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'];

/**
 * post_info's privacy_level (required; one of the creator's privacy_level_options, else
 * privacy_level_option_mismatch) and its boolean switches, as Direct Post documents them; kept on the item.
 */
function postSettings(postInfo: unknown, switches: string[]): Record<string, string> {
  const privacyLevel = required(field(postInfo, 'privacy_level'), 'post_info.privacy_level', 'invalid_params');
  if (!PUBLIC_CREATOR_PRIVACY_LEVELS.includes(privacyLevel)) {
    throw new PlatformRefusal(400, 'privacy_level_option_mismatch', `privacy_level ${privacyLevel} is not one of the creator's privacy_level_options`);
  }
  const settings: Record<string, string> = { privacy_level: privacyLevel };
  for (const name of switches) {
    const value = field(postInfo, name);
    if (value === undefined) continue;
    if (typeof value !== 'boolean') throw invalid(`post_info.${name} must be a boolean`);
    settings[name] = String(value);
  }
  return settings;
}

/** The post TikTok holds from its init on (its publish_id), under its eventual public video id. */
function initPost({ store, account, body }: RouteContext, text: string, mediaUrls: string[], extra: Record<string, string>): SandboxItem {
  const sequence = store.nextSeq();
  const publishId = `v_pub_url~v2-1.${7_400_000_000_000_000_000n + BigInt(sequence)}`;
  return store.add({
    platform: 'tiktok', account, owner: account, id: String(7_300_000_000_000_000_000n + BigInt(sequence)), kind: 'post',
    text, mediaUrls, parentId: null, postId: null, author: account, extra: { publishId, mode: String(field(body, 'post_mode') ?? 'DIRECT_POST'), ...extra },
  });
}

/** source_info of a FILE_UPLOAD, checked against the guide's chunk restrictions. */
function fileUploadPlan(source: unknown): { videoSize: number; chunkSize: number; chunkCount: number } {
  const [videoSize, chunkSize, chunkCount] = ['video_size', 'chunk_size', 'total_chunk_count'].map((name) => {
    const value = field(source, name);
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) throw invalid(`source_info.${name} must be a positive integer`);
    return value;
  });
  if (videoSize > VIDEO_MAX_BYTES) throw invalid('video_size is over the 4 GB maximum');
  if (videoSize < CHUNK_MIN_BYTES && chunkSize !== videoSize) throw invalid('a video under 5 MB is uploaded whole: chunk_size must be video_size');
  if (videoSize >= CHUNK_MIN_BYTES && (chunkSize < CHUNK_MIN_BYTES || chunkSize > CHUNK_MAX_BYTES)) throw invalid('chunk_size must be between 5 MB and 64 MB');
  if (chunkCount !== Math.floor(videoSize / chunkSize)) throw invalid('total_chunk_count must be video_size / chunk_size rounded down');
  if (chunkCount > MAX_CHUNKS) throw invalid('at most 1000 chunks');
  if (videoSize - (chunkCount - 1) * chunkSize > FINAL_CHUNK_MAX_BYTES) throw invalid('the final chunk would be over 128 MB');
  return { videoSize, chunkSize, chunkCount };
}

/**
 * A url TikTok pulls (PULL_FROM_URL), as it finds it once downloaded: the sandbox reads what
 * a media-host url holds without fetching it; any other url cannot be pulled here. What the
 * restrictions refuse fails the post in processing with TikTok's fail_reason.
 */
function pulledUpload(store: SandboxStore, account: string, url: string, kind: 'photo' | 'video'): SandboxUpload {
  const media = describeSandboxMedia(url);
  const failReason = !media || media.status !== 200 ? `${kind}_pull_failed` : pullRefusal(kind, media.contentType, media.bytes, media.width, media.height, media.seconds);
  const upload = store.addUpload({
    platform: 'tiktok', account, id: `pull-${store.nextSeq()}`, contentType: media?.contentType ?? 'application/octet-stream',
    declaredBytes: media?.bytes ?? 0, receivedBytes: media?.bytes ?? 0, width: media?.width ?? null, height: media?.height ?? null,
    durationSeconds: media?.seconds ?? null, altText: null, state: 'uploading', readyAt: Number.POSITIVE_INFINITY, extra: { url },
  });
  store.startProcessing(upload, failReason);
  return upload;
}

function pullRefusal(kind: 'photo' | 'video', type: string, bytes: number, width: number | null, height: number | null, seconds: number | null): string | null {
  if (kind === 'photo') return PHOTO_TYPES.includes(type) && bytes <= PHOTO_MAX_BYTES ? null : 'file_format_check_failed';
  return VIDEO_TYPES.includes(type) && bytes <= VIDEO_MAX_BYTES ? videoRefusal(width, height, seconds) : 'file_format_check_failed';
}

/** The video restrictions TikTok's processing checks: picture size 360-4096 px each way, at most 10 minutes. */
function videoRefusal(width: number | null, height: number | null, seconds: number | null): string | null {
  const outside = (px: number | null) => px !== null && (px < PICTURE_MIN_PX || px > PICTURE_MAX_PX);
  if (outside(width) || outside(height)) return 'picture_size_check_failed';
  return seconds !== null && seconds > VIDEO_MAX_SECONDS ? 'duration_check_failed' : null;
}

function attach(item: SandboxItem, uploads: SandboxUpload[]): void {
  for (const upload of uploads) upload.attachedTo = item.id;
  item.media.push(...uploads);
}

/**
 * Get Post Status (https://developers.tiktok.com/doc/content-posting-api-reference-get-video-status):
 * PROCESSING_UPLOAD while the bytes arrive and are processed, PROCESSING_DOWNLOAD while TikTok
 * pulls urls, FAILED with a fail_reason, PUBLISH_COMPLETE with the public id.
 */
function postStatus(store: SandboxStore, item: SandboxItem) {
  const uploads = item.media.map((upload) => store.upload('tiktok', upload.id) ?? upload);
  const received = uploads.reduce((sum, upload) => sum + upload.receivedBytes, 0);
  const bytes = item.extra.source === 'FILE_UPLOAD' ? { uploaded_bytes: received } : { downloaded_bytes: received };
  const failure = uploads.find((upload) => upload.state === 'failed');
  if (failure) return { status: 'FAILED', fail_reason: failure.failure ?? 'internal', publicaly_available_post_id: [], ...bytes };
  if (uploads.some((upload) => upload.state !== 'ready')) {
    return { status: item.extra.source === 'FILE_UPLOAD' ? 'PROCESSING_UPLOAD' : 'PROCESSING_DOWNLOAD', publicaly_available_post_id: [], ...bytes };
  }
  return { status: 'PUBLISH_COMPLETE', publicaly_available_post_id: [item.id], ...bytes };
}

/**
 * TikTok Content Posting API (Direct Post): video init (FILE_UPLOAD with its upload_url, or
 * PULL_FROM_URL), the chunk PUTs to the upload_url, photo init (PULL_FROM_URL), status fetch.
 * The init is the call that makes the post ('publish'); what later fails in processing shows
 * as FAILED. Processing takes the time processingEndsAt (store.ts) gives; a video outside 360-4096 px
 * (`width=`/`height=` of the media host) or over 10 minutes fails it, as TikTok's does. No comments API.
 */
export const tiktokDialect: PlatformDialect = {
  platform: 'tiktok',
  error: (status, code, message) => ({ status, body: { data: {}, error: { code: code ?? DEFAULT_CODES[status] ?? 'internal_error', message, log_id: `sandbox${Date.now()}` } } }),
  rateLimited: (resetAfterSeconds) => ({
    status: 429,
    headers: { 'retry-after': String(resetAfterSeconds) },
    body: { data: {}, error: { code: 'rate_limit_exceeded', message: 'The API rate limit was exceeded', log_id: `sandbox${Date.now()}` } },
  }),
  // Expired, revoked or unknown alike: 401 access_token_invalid (https://developers.tiktok.com/doc/tiktok-api-v2-error-handling).
  // "Error Codes" (https://developers.tiktok.com/doc/tiktok-api-v2-error-handling): 401 scope_not_authorized.
  insufficientScope: () => tiktokDialect.error(401, 'scope_not_authorized', 'The user did not authorize the scope required for completing this request.'),
  unauthorized: () => tiktokDialect.error(401, 'access_token_invalid', 'The access token is invalid or not found in the request.'),
  routes: [
    {
      // "Query Creator Info" (https://developers.tiktok.com/doc/content-posting-api-reference-query-creator-info): a public creator's options.
      method: 'POST',
      url: '/v2/post/publish/creator_info/query/',
      operation: 'creator_info',
      handle: ({ account }) => ({
        body: answer({
          creator_avatar_url: 'https://p16-sign.tiktokcdn-us.com/sandbox-avatar.jpeg',
          creator_username: account,
          creator_nickname: account,
          privacy_level_options: PUBLIC_CREATOR_PRIVACY_LEVELS,
          comment_disabled: false,
          duet_disabled: false,
          stitch_disabled: false,
          max_video_post_duration_sec: VIDEO_MAX_SECONDS,
        }),
      }),
    },
    {
      // Direct Post, "Initialize the posting request" (https://developers.tiktok.com/doc/content-posting-api-reference-direct-post).
      method: 'POST',
      url: '/v2/post/publish/video/init/',
      operation: 'publish',
      handle: (ctx) => {
        const postInfo = field(ctx.body, 'post_info');
        const settings = postSettings(postInfo, ['disable_comment', 'disable_duet', 'disable_stitch']);
        const title = String(field(postInfo, 'title') ?? '');
        if (title.length > 2200) throw invalid('title is longer than 2200');
        const source = field(ctx.body, 'source_info');
        if (field(source, 'source') === 'PULL_FROM_URL') {
          const url = required(field(source, 'video_url'), 'video_url', 'invalid_params');
          const item = initPost(ctx, title, [url], { source: 'PULL_FROM_URL', ...settings });
          attach(item, [pulledUpload(ctx.store, ctx.account, url, 'video')]);
          return { body: answer({ publish_id: item.extra.publishId }) };
        }
        if (field(source, 'source') !== 'FILE_UPLOAD') throw invalid('source_info.source must be FILE_UPLOAD or PULL_FROM_URL');
        const plan = fileUploadPlan(source);
        const item = initPost(ctx, title, [], { source: 'FILE_UPLOAD', ...settings });
        const uploadId = String(ctx.store.nextSeq());
        const uploadToken = `tok${uploadId}x${Date.now().toString(36)}`;
        attach(item, [
          ctx.store.addUpload({
            platform: 'tiktok', account: ctx.account, id: uploadId, contentType: 'application/octet-stream', declaredBytes: plan.videoSize, receivedBytes: 0,
            width: null, height: null, durationSeconds: null, altText: null, state: 'uploading', readyAt: Number.POSITIVE_INFINITY,
            extra: { uploadToken, chunkSize: String(plan.chunkSize), chunkCount: String(plan.chunkCount) },
          }),
        ]);
        // The real upload_url lives on open-upload.tiktokapis.com; here, under the platform's prefix.
        return { body: answer({ publish_id: item.extra.publishId, upload_url: `${ctx.baseUrl}/video/?upload_id=${uploadId}&upload_token=${uploadToken}` }) };
      },
    },
    {
      // Media Transfer Guide, "Media transfer HTTP schema": chunks in order, 206 until the last, 201 for it.
      method: 'PUT',
      url: '/video/',
      operation: 'upload',
      auth: 'none',
      handle: ({ store, query, headers, body }) => {
        const upload = store.upload('tiktok', query.upload_id ?? '');
        if (!upload || upload.extra.uploadToken !== query.upload_token) throw new PlatformRefusal(404, 'invalid_params', 'upload_id or upload_token is invalid');
        const range = contentRange(headers['content-range']);
        if (!range || range.first === null || range.last === null) throw invalid('Content-Range must be bytes {FIRST_BYTE}-{LAST_BYTE}/{TOTAL_BYTE_LENGTH}');
        if (range.total !== upload.declaredBytes) throw invalid('the total in Content-Range is not the video_size of the init');
        if (!Buffer.isBuffer(body) || body.length !== range.last - range.first + 1) throw invalid('the body is not the byte range Content-Range names');
        const chunkSize = Number(upload.extra.chunkSize);
        const chunkCount = Number(upload.extra.chunkCount);
        const isFinal = range.first === (chunkCount - 1) * chunkSize;
        if (range.first % chunkSize !== 0 || (isFinal ? range.last !== range.total - 1 : body.length !== chunkSize)) throw invalid('the chunk does not match chunk_size');
        // A chunk sent again (its answer was lost) is taken as already received.
        const repeated = range.last < upload.receivedBytes;
        if (!repeated && range.first !== upload.receivedBytes) throw invalid('file chunks must be uploaded sequentially');
        if (!repeated) {
          if (range.first === 0) Object.assign(upload, inspectUpload(body));
          upload.receivedBytes = range.last + 1;
          if (isFinal) {
            const failReason = VIDEO_TYPES.includes(upload.contentType) ? videoRefusal(upload.width, upload.height, upload.durationSeconds) : 'file_format_check_failed';
            store.startProcessing(upload, failReason);
          }
        }
        return { status: upload.receivedBytes === upload.declaredBytes ? 201 : 206 };
      },
    },
    {
      // Direct Post, "Post photos": content/init with media_type PHOTO, photos pulled from photo_images.
      method: 'POST',
      url: '/v2/post/publish/content/init/',
      operation: 'publish',
      handle: (ctx) => {
        if (field(ctx.body, 'media_type') !== 'PHOTO') throw invalid('media_type must be PHOTO');
        const postInfo = field(ctx.body, 'post_info');
        const settings = postSettings(postInfo, ['disable_comment', 'auto_add_music']);
        if (String(field(postInfo, 'title') ?? '').length > 90) throw invalid('title is longer than 90');
        const description = String(field(postInfo, 'description') ?? '');
        if (description.length > 4000) throw invalid('description is longer than 4000');
        const source = field(ctx.body, 'source_info');
        if (field(source, 'source') !== 'PULL_FROM_URL') throw invalid('photos are posted with source PULL_FROM_URL');
        const photos = field(source, 'photo_images');
        if (!Array.isArray(photos) || photos.length === 0 || photos.length > PHOTOS_MAX) throw invalid(`photo_images takes 1 to ${PHOTOS_MAX} urls`);
        const cover = field(source, 'photo_cover_index');
        if (typeof cover !== 'number' || cover < 0 || cover >= photos.length) throw invalid('photo_cover_index must index photo_images');
        const item = initPost(ctx, description, photos.map(String), { source: 'PULL_FROM_URL', ...settings });
        attach(item, photos.map((url) => pulledUpload(ctx.store, ctx.account, String(url), 'photo')));
        return { body: answer({ publish_id: item.extra.publishId }) };
      },
    },
    {
      // Display API, "Query User Video List" (https://developers.tiktok.com/doc/tiktok-api-v2-video-list): the user's
      // public videos newest first, `fields` in the query, {max_count (at most 20, default 10), cursor} in the body;
      // data {videos, cursor, has_more}, create_time in epoch seconds. Only posts TikTok finished (PUBLISH_COMPLETE) are public.
      method: 'POST',
      url: '/v2/video/list/',
      operation: 'lookup',
      handle: ({ store, account, body, query }) => {
        const fields = new Set((query.fields ?? '').split(',').filter(Boolean));
        if (fields.size === 0) throw invalid('fields is required');
        const maxCount = field(body, 'max_count') ?? 10;
        if (typeof maxCount !== 'number' || !Number.isInteger(maxCount) || maxCount < 1 || maxCount > 20) throw invalid('max_count must be 1 to 20');
        const cursor = field(body, 'cursor');
        const before = typeof cursor === 'number' ? cursor : Number.POSITIVE_INFINITY;
        const videos = store
          .postsOf('tiktok', account)
          .filter((item) => postStatus(store, item).status === 'PUBLISH_COMPLETE' && Date.parse(item.createdAt) < before);
        const page = videos.slice(0, maxCount);
        const all: Record<string, (item: SandboxItem) => unknown> = {
          id: (item) => item.id,
          create_time: (item) => Math.floor(Date.parse(item.createdAt) / 1000),
          title: (item) => item.extra.title ?? '',
          video_description: (item) => item.text,
          share_url: (item) => `https://www.tiktok.com/@${account}/video/${item.id}`,
        };
        const shown = page.map((item) => Object.fromEntries([...fields].filter((name) => all[name]).map((name) => [name, all[name](item)])));
        const last = page[page.length - 1];
        // The cursor is a UTC time in milliseconds: the next page holds the videos created before it.
        return { body: answer({ videos: shown, cursor: last ? Date.parse(last.createdAt) : 0, has_more: videos.length > page.length }) };
      },
    },
    {
      // Display API, "Query Videos" (https://developers.tiktok.com/doc/tiktok-api-v2-video-query): video.list; `fields`
      // in the query (the Video Object's, https://developers.tiktok.com/doc/tiktok-api-v2-video-object: like_count,
      // comment_count, share_count, view_count...), {filters: {video_ids}} (at most 20) in the body; only the
      // requesting user's public videos are answered, other ids are left out.
      method: 'POST',
      url: '/v2/video/query/',
      operation: 'metrics',
      handle: ({ store, account, body, query }) => {
        const fields = new Set((query.fields ?? '').split(',').filter(Boolean));
        if (fields.size === 0) throw invalid('fields is required');
        const ids = field(field(body, 'filters'), 'video_ids');
        if (!Array.isArray(ids) || ids.length === 0 || ids.length > 20) throw invalid('filters.video_ids must list 1 to 20 video ids');
        const all: Record<string, (item: SandboxItem) => unknown> = {
          id: (item) => item.id,
          create_time: (item) => Math.floor(Date.parse(item.createdAt) / 1000),
          title: (item) => item.extra.title ?? '',
          view_count: (item) => itemCounts(store, item).views,
          like_count: (item) => itemCounts(store, item).likes,
          comment_count: (item) => itemCounts(store, item).comments,
          share_count: (item) => itemCounts(store, item).shares,
        };
        const videos = store
          .postsOf('tiktok', account)
          .filter((item) => ids.includes(item.id) && postStatus(store, item).status === 'PUBLISH_COMPLETE')
          .map((item) => Object.fromEntries([...fields].filter((name) => all[name]).map((name) => [name, all[name](item)])));
        return { body: answer({ videos, cursor: 0, has_more: false }) };
      },
    },
    {
      method: 'POST',
      url: '/v2/post/publish/status/fetch/',
      operation: 'lookup',
      handle: ({ store, account, body }) => {
        const publishId = required(field(body, 'publish_id'), 'publish_id', 'invalid_params');
        const item = store.items.find((candidate) => candidate.platform === 'tiktok' && candidate.account === account && candidate.extra.publishId === publishId);
        if (!item) throw new PlatformRefusal(400, 'invalid_publish_id', 'publish_id does not exist');
        return { body: answer(postStatus(store, item)) };
      },
    },
  ],
};

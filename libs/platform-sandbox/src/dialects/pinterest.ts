import { randomBytes } from 'node:crypto';
import { describeSandboxMedia } from '../media-host';
import { isSandboxFilePart } from '../multipart';
import { field, PlatformDialect, PlatformRefusal, required } from '../dialect';
import type { RouteAnswer } from '../dialect';
import { namedToFailProcessing, SandboxItem, SandboxStore, SandboxUpload } from '../store';
import { pageOf, pageSize } from './listing';
import { GIB, inspectUpload, MIB } from './uploaded-media';
import { itemCounts } from './metrics-growth';

const DEFAULT_CODES: Record<number, number> = { 400: 1, 401: 2, 403: 3, 404: 4, 429: 8, 500: 1, 503: 1 };

/** "Pinterest product specs" (https://help.pinterest.com/en/business/article/pinterest-product-specs). */
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
const IMAGE_MAX_BYTES = 20 * MIB;
const VIDEO_TYPES = ['video/mp4', 'video/quicktime'];
const VIDEO_MAX_BYTES = 2 * GIB;
const CAROUSEL_MIN = 2;
const CAROUSEL_MAX = 5;
/** Create Pin (https://developers.pinterest.com/docs/api/v5/pins-create): alt_text up to 500 characters. */
const ALT_TEXT_MAX = 500;

/** A Pin's `media` (Pin object): its media_type, a carousel (multiple_images) listing its items. */
function pinMedia(item: SandboxItem) {
  if (item.media.length > 1) return { media_type: 'multiple_images', items: item.media.map(() => ({ item_type: 'image' })) };
  return { media_type: item.media[0]?.contentType.startsWith('video/') ? 'video' : 'image' };
}

function invalid(message: string): PlatformRefusal {
  return new PlatformRefusal(400, '1', message);
}

/**
 * An image Pinterest pulls by url, as it finds it: the sandbox reads what a media-host url holds
 * without fetching it; other urls are taken on trust (it cannot fetch them). Refused like the
 * real API when it cannot be fetched, is no image type Pinterest takes, or is over 20 MB.
 */
function pulledImage(store: SandboxStore, account: string, url: string, altText: string | null): SandboxUpload {
  const media = describeSandboxMedia(url);
  if (media && (media.status !== 200 || !IMAGE_TYPES.includes(media.contentType) || media.bytes > IMAGE_MAX_BYTES)) {
    throw invalid(`Sorry we could not fetch the image at ${url}.`);
  }
  return store.addUpload({
    platform: 'pinterest', account, id: `img-${store.nextSeq()}`, contentType: media?.contentType ?? 'image/jpeg', declaredBytes: media?.bytes ?? 0,
    receivedBytes: media?.bytes ?? 0, width: media?.width ?? null, height: media?.height ?? null, durationSeconds: null, altText, state: 'ready', readyAt: Date.now(), extra: { url },
  });
}

/** The uploads a media_source names: pulled images, or a processed video upload. */
function sourceMedia(store: SandboxStore, account: string, source: unknown, altText: string | null): { urls: string[]; uploads: SandboxUpload[] } {
  const type = field(source, 'source_type');
  if (type === 'image_url') {
    const url = required(field(source, 'url'), 'media_source.url', '1');
    return { urls: [url], uploads: [pulledImage(store, account, url, altText)] };
  }
  if (type === 'multiple_image_urls') {
    const items = field(source, 'items');
    if (!Array.isArray(items) || items.length < CAROUSEL_MIN || items.length > CAROUSEL_MAX) throw invalid(`multiple_image_urls takes ${CAROUSEL_MIN} to ${CAROUSEL_MAX} items`);
    const urls = items.map((item) => required(field(item, 'url'), 'items.url', '1'));
    return { urls, uploads: urls.map((url) => pulledImage(store, account, url, null)) };
  }
  if (type === 'video_id') {
    const upload = store.upload('pinterest', required(field(source, 'media_id'), 'media_source.media_id', '1'));
    if (!upload || upload.account !== account) throw invalid('Media not found.');
    const status = mediaStatus(upload);
    if (status !== 'succeeded') throw invalid(`The video upload is not ready to be pinned: its status is ${status}.`);
    if (field(source, 'cover_image_url') === undefined && field(source, 'cover_image_key_frame_time') === undefined && field(source, 'cover_image_data') === undefined) {
      throw invalid('A cover image is required: cover_image_url, cover_image_data or cover_image_key_frame_time.');
    }
    upload.altText = altText;
    return { urls: [], uploads: [upload] };
  }
  throw invalid('Invalid media_source: the sandbox takes image_url, multiple_image_urls or video_id');
}

/** GET /v5/media/{media_id} status: registered (no file yet), processing, succeeded, failed. */
function mediaStatus(upload: SandboxUpload): 'registered' | 'processing' | 'succeeded' | 'failed' {
  return upload.state === 'uploading' ? 'registered' : upload.state === 'ready' ? 'succeeded' : upload.state;
}

/** S3's XML error (the upload_url is Amazon S3's POST Object, not Pinterest's API). */
function storageError(status: number, code: string, message: string): RouteAnswer {
  return { status, headers: { 'content-type': 'application/xml' }, body: `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>` };
}

/**
 * Pinterest API v5: pins on a board (images pulled by url, carousels, video pins), the media
 * upload for videos ("Creating Pins", https://developers.pinterest.com/docs/content/update/):
 * `POST /v5/media` answers an upload_url and upload_parameters, the file is POSTed there as a
 * multipart form (here `/pinterest/media-upload/`, standing in for S3: 204), `GET /v5/media/{id}`
 * tells registered → processing → succeeded | failed; a pin names a video by media_id only
 * once it succeeded. Processing takes the time processingEndsAt (store.ts) gives; a file named
 * to fail (namedToFailProcessing), or one that is not an MP4/MOV video, fails it. No comments API.
 */
export const pinterestDialect: PlatformDialect = {
  platform: 'pinterest',
  error: (status, code, message) => ({ status, body: { code: code !== undefined && /^\d+$/.test(code) ? Number(code) : (DEFAULT_CODES[status] ?? 1), message } }),
  rateLimited: (resetAfterSeconds) => ({ status: 429, headers: { 'retry-after': String(resetAfterSeconds) }, body: { code: 8, message: 'Rate limit exceeded' } }),
  // Expired, revoked or unknown alike: 401 {"code": 2, "message": "Authentication failed."}.
  // Pinterest refuses a token without the operation's scope as it refuses any it will not take: 401 code 3.
  insufficientScope: () => ({ status: 401, body: { code: 3, message: 'Authorization failed.' } }),
  unauthorized: () => ({ status: 401, body: { code: 2, message: 'Authentication failed.' } }),
  routes: [
    {
      method: 'POST',
      url: '/v5/pins',
      operation: 'publish',
      handle: ({ store, account, body }) => {
        const boardId = required(field(body, 'board_id'), 'board_id', '1');
        const altText = field(body, 'alt_text');
        if (altText !== undefined && (typeof altText !== 'string' || [...altText].length > ALT_TEXT_MAX)) throw invalid(`alt_text takes at most ${ALT_TEXT_MAX} characters`);
        // "Create Pin" (https://developers.pinterest.com/docs/api/v5/pins-create): title at most 100 characters, link at most 2,048.
        const title = field(body, 'title');
        if (title !== undefined && (typeof title !== 'string' || [...title].length > 100)) throw invalid('title takes at most 100 characters');
        const link = field(body, 'link');
        if (link !== undefined && (typeof link !== 'string' || link.length > 2_048 || !/^https?:\/\//.test(link))) throw invalid('link must be a URL of at most 2048 characters');
        const media = sourceMedia(store, account, field(body, 'media_source'), typeof altText === 'string' ? altText : null);
        const item = store.add({
          platform: 'pinterest', account, owner: boardId, id: String(1_100_000_000_000_000_000n + BigInt(store.nextSeq())), kind: 'post',
          text: String(field(body, 'description') ?? ''), mediaUrls: media.urls, media: media.uploads, parentId: null, postId: null, author: account,
          extra: { title: String(title ?? ''), ...(typeof altText === 'string' ? { altText } : {}), ...(typeof link === 'string' ? { link } : {}) },
        });
        for (const upload of media.uploads) upload.attachedTo = item.id;
        return { status: 201, body: { id: item.id, board_id: boardId, title: item.extra.title, description: item.text, alt_text: altText ?? null, created_at: item.createdAt.replace(/\.\d+Z$/, ''), media: pinMedia(item) } };
      },
    },
    {
      // "Get Pin analytics" (https://developers.pinterest.com/docs/api/v5/pins-analytics): start_date and end_date
      // (YYYY-MM-DD, at most 90 days back, end not after today), metric_types (IMPRESSION, SAVE, PIN_CLICK,
      // OUTBOUND_CLICK, VIDEO_MRC_VIEW...); answers per app type ("all") daily_metrics, summary_metrics and
      // lifetime_metrics. A pin of another user is 403 code 29 "You are not permitted to access that resource".
      method: 'GET',
      url: '/v5/pins/:pinId/analytics',
      operation: 'metrics',
      handle: ({ store, account, params, query }) => {
        const day = /^\d{4}-\d{2}-\d{2}$/;
        const start = required(query.start_date, 'start_date', '1');
        const end = required(query.end_date, 'end_date', '1');
        if (!day.test(start) || !day.test(end) || start > end) throw invalid('start_date and end_date must be dates (YYYY-MM-DD), start not after end');
        // On the sandbox's clock: "start_date ... cannot be more than 90 days back from today", end_date not after today.
        const today = new Date(store.auth.now()).toISOString().slice(0, 10);
        const earliest = new Date(store.auth.now() - 90 * 86_400_000).toISOString().slice(0, 10);
        if (start < earliest || end > today) throw invalid(`start_date must be at most 90 days back (${earliest}) and end_date not after today (${today})`);
        const types = required(query.metric_types, 'metric_types', '1').split(',');
        const pin = store.find('pinterest', params.pinId);
        if (!pin) throw new PlatformRefusal(404, '50', 'Pin not found.');
        if (pin.account !== account) throw new PlatformRefusal(403, '29', 'You are not permitted to access that resource.');
        const counts = itemCounts(store, pin);
        const all: Record<string, number> = { IMPRESSION: counts.impressions, SAVE: counts.saves, PIN_CLICK: counts.clicks, OUTBOUND_CLICK: Math.floor(counts.clicks / 2), VIDEO_MRC_VIEW: pin.media.some((upload) => upload.contentType.startsWith('video/')) ? counts.views : 0 };
        const metrics = Object.fromEntries(types.filter((type) => type in all).map((type) => [type, all[type]]));
        return { body: { all: { daily_metrics: [], summary_metrics: metrics, lifetime_metrics: metrics } } };
      },
    },
    {
      method: 'GET',
      url: '/v5/boards/:boardId/pins',
      operation: 'lookup',
      // "List Pins on board" (https://developers.pinterest.com/docs/api/v5/boards-list_pins): newest first, page_size 1-250
      // (default 25), `bookmark` for the next page (null after the last); created_at in UTC without an offset.
      handle: ({ store, account, params, query }) => {
        const refusal = (message: string) => invalid(message);
        const { page, next } = pageOf(store.postsOf('pinterest', account, params.boardId), query.bookmark, pageSize(query.page_size, { min: 1, max: 250, default: 25 }, refusal), refusal);
        const items = page.map((item) => ({ id: item.id, board_id: params.boardId, title: item.extra.title, description: item.text, created_at: item.createdAt.replace(/\.\d+Z$/, ''), media: pinMedia(item) }));
        return { body: { items, bookmark: next } };
      },
    },
    {
      // "Register media upload": only video.
      method: 'POST',
      url: '/v5/media',
      operation: 'upload_session',
      handle: ({ store, account, body, baseUrl }) => {
        if (field(body, 'media_type') !== 'video') throw invalid('media_type must be video');
        const mediaId = String(5_200_000_000_000_000_000n + BigInt(store.nextSeq()));
        const key = `uploads/${mediaId.slice(-2)}/${randomBytes(3).toString('hex')}/2:video:${mediaId}`;
        const signature = randomBytes(16).toString('hex');
        store.addUpload({
          platform: 'pinterest', account, id: mediaId, contentType: 'application/octet-stream', declaredBytes: 0, receivedBytes: 0,
          width: null, height: null, durationSeconds: null, altText: null, state: 'uploading', readyAt: Number.POSITIVE_INFINITY, extra: { key, signature },
        });
        const amzDate = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
        return {
          status: 201,
          body: {
            media_id: mediaId,
            media_type: 'video',
            upload_url: `${baseUrl}/media-upload/`,
            upload_parameters: {
              'x-amz-date': amzDate,
              'x-amz-signature': signature,
              'x-amz-security-token': 'sandbox-security-token',
              'x-amz-algorithm': 'AWS4-HMAC-SHA256',
              key,
              policy: Buffer.from(JSON.stringify({ conditions: [{ key }] })).toString('base64'),
              'x-amz-credential': `SANDBOX/${amzDate.slice(0, 8)}/us-east-1/s3/aws4_request`,
              'Content-Type': 'multipart/form-data',
            },
          },
        };
      },
    },
    {
      // Stands in for S3's POST Object at the upload_url: the form's fields as registered, the file last; 204 No Content.
      method: 'POST',
      url: '/media-upload/',
      operation: 'upload',
      auth: 'none',
      handle: ({ store, body }) => {
        const key = field(body, 'key');
        const upload = [...store.uploads.values()].find((candidate) => candidate.platform === 'pinterest' && candidate.extra.key === key);
        if (!upload || field(body, 'x-amz-signature') !== upload.extra.signature) {
          return storageError(403, 'AccessDenied', 'Invalid according to Policy: Policy Condition failed');
        }
        const file = field(body, 'file');
        if (!isSandboxFilePart(file)) return storageError(400, 'InvalidArgument', 'POST requires exactly one file upload per request.');
        if (file.size > VIDEO_MAX_BYTES) return storageError(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size');
        Object.assign(upload, inspectUpload(file.head));
        upload.declaredBytes = upload.receivedBytes = file.size;
        const unprocessable = !VIDEO_TYPES.includes(upload.contentType) || namedToFailProcessing(file.filename);
        store.startProcessing(upload, unprocessable ? 'The video could not be processed' : null);
        return { status: 204 };
      },
    },
    {
      method: 'GET',
      url: '/v5/media/:mediaId',
      operation: 'lookup',
      handle: ({ store, account, params }) => {
        const upload = store.upload('pinterest', params.mediaId);
        if (!upload || upload.account !== account) throw new PlatformRefusal(404, '4', 'Media not found.');
        return { body: { media_id: upload.id, media_type: 'video', status: mediaStatus(upload) } };
      },
    },
  ],
};

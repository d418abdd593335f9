import { field, PlatformDialect, PlatformRefusal, required } from '../dialect';
import type { RouteContext } from '../dialect';

const DEFAULT_CODES: Record<number, string> = { 400: 'invalid_params', 401: 'access_token_invalid', 403: 'scope_not_authorized', 429: 'rate_limit_exceeded', 500: 'internal_error', 503: 'internal_error' };

function answer(data: unknown) {
  return { data, error: { code: 'ok', message: '', log_id: `sandbox${Date.now()}` } };
}

/** Stores the post under its eventual public video id, remembering the publish_id TikTok answers first. */
function initPost({ store, account, body }: RouteContext, text: string, mediaUrls: string[]) {
  const sequence = store.nextSeq();
  const publishId = `v_pub_url~v2-1.${7_400_000_000_000_000_000n + BigInt(sequence)}`;
  store.add({
    platform: 'tiktok', account, owner: account, id: String(7_300_000_000_000_000_000n + BigInt(sequence)), kind: 'post',
    text, mediaUrls, parentId: null, postId: null, author: account, extra: { publishId, mode: String(field(body, 'post_mode') ?? 'DIRECT_POST') },
  });
  return { body: answer({ publish_id: publishId }) };
}

/** TikTok Content Posting API (Direct Post): video and photo init, then status fetch. No comments API. */
export const tiktokDialect: PlatformDialect = {
  platform: 'tiktok',
  error: (status, code, message) => ({ status, body: { data: {}, error: { code: code ?? DEFAULT_CODES[status] ?? 'internal_error', message, log_id: `sandbox${Date.now()}` } } }),
  rateLimited: (resetAfterSeconds) => ({
    status: 429,
    headers: { 'retry-after': String(resetAfterSeconds) },
    body: { data: {}, error: { code: 'rate_limit_exceeded', message: 'The API rate limit was exceeded', log_id: `sandbox${Date.now()}` } },
  }),
  // Expired, revoked or unknown alike: 401 access_token_invalid (https://developers.tiktok.com/doc/tiktok-api-v2-error-handling).
  unauthorized: () => tiktokDialect.error(401, 'access_token_invalid', 'The access token is invalid or not found in the request.'),
  routes: [
    {
      method: 'POST',
      url: '/v2/post/publish/video/init/',
      operation: 'publish',
      handle: (ctx) => {
        const source = field(ctx.body, 'source_info');
        if (field(source, 'source') !== 'PULL_FROM_URL') throw new PlatformRefusal(400, 'invalid_params', 'the sandbox takes source PULL_FROM_URL');
        const title = String(field(field(ctx.body, 'post_info'), 'title') ?? '');
        if (title.length > 2200) throw new PlatformRefusal(400, 'invalid_params', 'title is longer than 2200');
        return initPost(ctx, title, [required(field(source, 'video_url'), 'video_url', 'invalid_params')]);
      },
    },
    {
      method: 'POST',
      url: '/v2/post/publish/content/init/',
      operation: 'publish',
      handle: (ctx) => {
        if (field(ctx.body, 'media_type') !== 'PHOTO') throw new PlatformRefusal(400, 'invalid_params', 'media_type must be PHOTO');
        const photos = field(field(ctx.body, 'source_info'), 'photo_images');
        if (!Array.isArray(photos) || photos.length === 0) throw new PlatformRefusal(400, 'invalid_params', 'photo_images is required');
        return initPost(ctx, String(field(field(ctx.body, 'post_info'), 'description') ?? ''), photos.map(String));
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
        return { body: answer({ status: 'PUBLISH_COMPLETE', publicaly_available_post_id: [item.id], uploaded_bytes: 0 }) };
      },
    },
  ],
};

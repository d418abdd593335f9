import { field, PlatformDialect, PlatformRefusal, required } from '../dialect';

const DEFAULT_CODES: Record<number, number> = { 400: 1, 401: 2, 403: 3, 404: 4, 429: 8, 500: 1, 503: 1 };

/** The urls a media_source names, or a refusal like the real API's. */
function mediaUrls(source: unknown): string[] {
  const type = field(source, 'source_type');
  if (type === 'image_url') return [required(field(source, 'url'), 'media_source.url')];
  const items = field(source, 'items');
  if (type === 'multiple_image_urls' && Array.isArray(items) && items.length > 1) return items.map((item) => required(field(item, 'url'), 'items.url'));
  throw new PlatformRefusal(400, '1', 'Invalid media_source: the sandbox takes image_url or multiple_image_urls');
}

/** Pinterest API v5: pins on a board. No comments API. */
export const pinterestDialect: PlatformDialect = {
  platform: 'pinterest',
  error: (status, code, message) => ({ status, body: { code: code !== undefined && /^\d+$/.test(code) ? Number(code) : (DEFAULT_CODES[status] ?? 1), message } }),
  rateLimited: (resetAfterSeconds) => ({ status: 429, headers: { 'retry-after': String(resetAfterSeconds) }, body: { code: 8, message: 'Rate limit exceeded' } }),
  // Expired, revoked or unknown alike: 401 {"code": 2, "message": "Authentication failed."}.
  unauthorized: () => ({ status: 401, body: { code: 2, message: 'Authentication failed.' } }),
  routes: [
    {
      method: 'POST',
      url: '/v5/pins',
      operation: 'publish',
      handle: ({ store, account, body }) => {
        const boardId = required(field(body, 'board_id'), 'board_id', '1');
        const media = mediaUrls(field(body, 'media_source'));
        const item = store.add({
          platform: 'pinterest', account, owner: boardId, id: String(1_100_000_000_000_000_000n + BigInt(store.nextSeq())), kind: 'post',
          text: String(field(body, 'description') ?? ''), mediaUrls: media, parentId: null, postId: null, author: account, extra: { title: String(field(body, 'title') ?? '') },
        });
        return { status: 201, body: { id: item.id, board_id: boardId, title: item.extra.title, description: item.text, created_at: item.createdAt, media: { media_type: 'image' } } };
      },
    },
    {
      method: 'GET',
      url: '/v5/boards/:boardId/pins',
      operation: 'lookup',
      handle: ({ store, account, params }) => ({
        body: { items: store.postsOf('pinterest', account, params.boardId).map((item) => ({ id: item.id, title: item.extra.title, description: item.text, created_at: item.createdAt })), bookmark: null },
      }),
    },
  ],
};

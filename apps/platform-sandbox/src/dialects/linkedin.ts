import { existing, field, NewComment, PlatformDialect, PlatformRefusal, required, rootPostId, RouteContext } from '../dialect';
import type { SandboxItem, SandboxStore } from '../store';

const DEFAULT_CODES: Record<number, string> = { 400: 'ILLEGAL_ARGUMENT', 401: 'REVOKED_ACCESS_TOKEN', 403: 'ACCESS_DENIED', 404: 'NOT_FOUND', 422: 'UNPROCESSABLE_ENTITY', 500: 'INTERNAL_SERVER_ERROR', 503: 'SERVICE_UNAVAILABLE' };

/** LinkedIn's versioned API refuses calls without its version headers. */
function requireVersionHeaders({ headers }: RouteContext): void {
  if (!/^\d{6}(\.\d{2})?$/.test(String(headers['linkedin-version'] ?? ''))) throw new PlatformRefusal(400, 'VERSION_MISSING', 'A version must be present. Please specify a version by adding the LinkedIn-Version header');
  if (headers['x-restli-protocol-version'] !== '2.0.0') throw new PlatformRefusal(400, 'ILLEGAL_ARGUMENT', 'X-Restli-Protocol-Version 2.0.0 is required');
}

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

function commentJson(item: SandboxItem) {
  return {
    $URN: item.id,
    id: item.id.replace(/^.*,(\d+)\)$/, '$1'),
    actor: item.author,
    object: item.postId,
    message: { text: item.text },
    created: { actor: item.author, time: Date.parse(item.createdAt) },
    ...(item.parentId !== item.postId ? { parentComment: item.parentId } : {}),
  };
}

/** LinkedIn Posts API (/rest/posts) and socialActions comments, with its version headers checked. */
export const linkedinDialect: PlatformDialect = {
  platform: 'linkedin',
  error: (status, code, message) => ({ status, body: { status, serviceErrorCode: 100, code: code ?? DEFAULT_CODES[status] ?? 'ERROR', message } }),
  rateLimited: (resetAfterSeconds) => ({
    status: 429,
    headers: { 'retry-after': String(resetAfterSeconds) },
    body: { status: 429, serviceErrorCode: 101, code: 'TOO_MANY_REQUESTS', message: 'Resource level throttle APPLICATION DAY limit reached' },
  }),
  createComment,
  routes: [
    {
      method: 'POST',
      url: '/rest/posts',
      operation: 'publish',
      handle: (ctx) => {
        requireVersionHeaders(ctx);
        const { store, account, body } = ctx;
        const author = required(field(body, 'author'), '/author');
        const commentary = required(field(body, 'commentary'), '/commentary');
        if (field(body, 'lifecycleState') !== 'PUBLISHED') throw new PlatformRefusal(422, 'UNPROCESSABLE_ENTITY', '/lifecycleState must be PUBLISHED');
        const item = store.add({
          platform: 'linkedin', account, owner: author, id: `urn:li:share:${7_200_000_000_000_000_000n + BigInt(store.nextSeq())}`, kind: 'post',
          text: unescapeLittleText(commentary), mediaUrls: [], parentId: null, postId: null, author, extra: {},
        });
        return { status: 201, headers: { 'x-restli-id': item.id } };
      },
    },
    {
      method: 'POST',
      url: '/rest/socialActions/:urn/comments',
      operation: 'comment',
      handle: (ctx) => {
        requireVersionHeaders(ctx);
        const { store, account, params, body } = ctx;
        const parent = existing(store, 'linkedin', params.urn, 'NOT_FOUND');
        const actor = required(field(body, 'actor'), '/actor');
        const text = unescapeLittleText(required(field(field(body, 'message'), 'text'), '/message/text'));
        const comment = createComment(store, { account, parent, text, author: actor });
        return { status: 201, headers: { 'x-restli-id': comment.id }, body: commentJson(comment) };
      },
    },
    {
      method: 'GET',
      url: '/rest/socialActions/:urn/comments',
      operation: 'list_comments',
      handle: (ctx) => {
        requireVersionHeaders(ctx);
        const elements = ctx.store.commentsUnder('linkedin', ctx.params.urn).map(commentJson);
        return { body: { elements, paging: { start: 0, count: elements.length, total: elements.length } } };
      },
    },
  ],
};

import { existing, field, NewComment, PlatformDialect, required, rootPostId, RouteContext } from '../dialect';
import type { SandboxItem, SandboxStore } from '../store';
import { businessUseCaseLimited, graphError, graphUnauthorized, requireActingFor } from './meta-graph';

function createComment(store: SandboxStore, { account, parent, text, author }: NewComment): SandboxItem {
  const postId = rootPostId(parent);
  return store.add({
    platform: 'facebook', account, owner: author, id: `${postId.split('_').pop()}_${store.nextSeq()}`, kind: 'comment',
    text, mediaUrls: [], parentId: parent.id, postId, author, extra: {},
  });
}

function commentJson(item: SandboxItem) {
  return {
    id: item.id,
    message: item.text,
    created_time: item.createdAt.replace(/\.\d+Z$/, '+0000'),
    from: { name: item.author, id: item.owner },
    permalink_url: `https://www.facebook.com/${item.postId}?comment_id=${item.id}`,
    ...(item.parentId !== item.postId ? { parent: { id: item.parentId } } : {}),
  };
}

/**
 * A page's feed takes only that page's token: Page Feed, "Publish" requirements
 * (https://developers.facebook.com/docs/graph-api/reference/page/feed): a Page access token
 * with pages_manage_posts; anything else is Graph's permission error #200.
 */
function requirePageToken(ctx: RouteContext): void {
  requireActingFor(ctx.identity, (identity) => identity.platform === 'facebook' && identity.kind === 'page' && identity.platformAccountId === ctx.params.node, '200',
    '(#200) If posting to a page, requires both pages_read_engagement and pages_manage_posts as an admin with sufficient administrative permission');
}

/** Facebook Pages on the Graph API: /{page-id}/feed, /{object-id}/comments. */
export const facebookDialect: PlatformDialect = {
  platform: 'facebook',
  error: graphError,
  unauthorized: graphUnauthorized,
  rateLimited: businessUseCaseLimited('80001', 'pages', 'There have been too many calls to this Page account. Wait a bit and try again.'),
  createComment,
  routes: [
    {
      method: 'POST',
      url: '/:version/:node/feed',
      operation: 'publish',
      handle: (ctx) => {
        requirePageToken(ctx);
        const { store, account, params, body } = ctx;
        const message = field(body, 'message');
        const link = field(body, 'link');
        if (typeof message !== 'string' && typeof link !== 'string') required(undefined, 'message or link', '100');
        const item = store.add({
          platform: 'facebook', account, owner: params.node, id: `${params.node}_${store.nextSeq()}`, kind: 'post',
          text: typeof message === 'string' ? message : '', mediaUrls: typeof link === 'string' ? [link] : [],
          parentId: null, postId: null, author: params.node, extra: {},
        });
        return { body: { id: item.id } };
      },
    },
    {
      method: 'GET',
      url: '/:version/:node/feed',
      operation: 'lookup',
      handle: (ctx) => {
        requirePageToken(ctx);
        const { store, account, params } = ctx;
        const data = store.postsOf('facebook', account, params.node).map((item) => ({
          id: item.id,
          message: item.text,
          created_time: item.createdAt,
          permalink_url: `https://www.facebook.com/${item.id.replace('_', '/posts/')}`,
        }));
        return { body: { data } };
      },
    },
    {
      method: 'POST',
      url: '/:version/:node/comments',
      operation: 'comment',
      handle: ({ store, account, params, body }) => {
        const parent = existing(store, 'facebook', params.node, '100');
        const comment = createComment(store, { account, parent, text: required(field(body, 'message'), 'message', '100'), author: account });
        return { body: { id: comment.id } };
      },
    },
    {
      method: 'GET',
      url: '/:version/:node/comments',
      operation: 'list_comments',
      handle: ({ store, params }) => ({ body: { data: store.commentsUnder('facebook', params.node).map(commentJson), paging: {} } }),
    },
  ],
};

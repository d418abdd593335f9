import { existing, field, NewComment, PlatformDialect, PlatformRefusal, required, rootPostId } from '../dialect';
import type { SandboxItem, SandboxStore } from '../store';
import { containerMedia, graphError, graphId, graphRateLimited, stringParam, takeContainer } from './meta-graph';

/** Instagram keeps replies one level deep: a reply to a reply joins the top-level comment. */
function createComment(store: SandboxStore, { account, parent, text, author }: NewComment): SandboxItem {
  const topLevel = parent.kind === 'comment' && parent.parentId !== parent.postId ? existing(store, 'instagram', parent.parentId ?? '') : parent;
  return store.add({
    platform: 'instagram', account, owner: author, id: graphId(store), kind: 'comment', text, mediaUrls: [],
    parentId: topLevel.id, postId: rootPostId(parent), author, extra: {},
  });
}

function commentJson(item: SandboxItem) {
  return { id: item.id, text: item.text, username: item.author, timestamp: item.createdAt.replace(/\.\d+Z$/, '+0000') };
}

function permalink(item: SandboxItem): string {
  return `https://www.instagram.com/p/${BigInt(item.id).toString(36)}/`;
}

/** Instagram Graph API: containers on /{ig-user-id}/media, /media_publish, comments and replies. */
export const instagramDialect: PlatformDialect = {
  platform: 'instagram',
  error: graphError,
  rateLimited: graphRateLimited,
  createComment,
  routes: [
    {
      method: 'POST',
      url: '/:version/:node/media',
      operation: 'container',
      handle: ({ store, account, params, body }) => {
        const input = (body ?? {}) as Record<string, unknown>;
        const carousel = stringParam(input, 'media_type') === 'CAROUSEL' && stringParam(input, 'children');
        if (!carousel && !stringParam(input, 'image_url') && !stringParam(input, 'video_url')) {
          throw new PlatformRefusal(400, '100', 'The parameter image_url or video_url is required');
        }
        const id = graphId(store);
        store.pending.set(id, { platform: 'instagram', account, owner: params.node, params: input, consumedBy: null });
        return { body: { id } };
      },
    },
    {
      method: 'POST',
      url: '/:version/:node/media_publish',
      operation: 'publish',
      handle: ({ store, account, params, body }) => {
        const container = takeContainer(store, account, required(field(body, 'creation_id'), 'creation_id', '100'));
        const item = store.add({
          platform: 'instagram', account, owner: params.node, id: graphId(store), kind: 'post',
          text: stringParam(container.params, 'caption') ?? '', mediaUrls: containerMedia(store, container.params),
          parentId: null, postId: null, author: params.node, extra: {},
        });
        container.consumedBy = item.id;
        return { body: { id: item.id } };
      },
    },
    {
      method: 'GET',
      url: '/:version/:node',
      operation: 'lookup',
      handle: ({ store, params }) => {
        if (store.pending.has(params.node)) return { body: { id: params.node, status_code: 'FINISHED' } };
        const item = existing(store, 'instagram', params.node, '100');
        return { body: { id: item.id, permalink: permalink(item) } };
      },
    },
    {
      method: 'GET',
      url: '/:version/:node/media',
      operation: 'lookup',
      handle: ({ store, account, params }) => ({
        body: { data: store.postsOf('instagram', account, params.node).map((item) => ({ id: item.id, caption: item.text, permalink: permalink(item) })) },
      }),
    },
    {
      method: 'POST',
      url: '/:version/:node/comments',
      operation: 'comment',
      handle: ({ store, account, params, body }) => {
        const parent = existing(store, 'instagram', params.node, '100');
        if (parent.kind !== 'post') throw new PlatformRefusal(400, '100', 'comments go on media; reply to a comment with /replies');
        return { body: { id: createComment(store, { account, parent, text: required(field(body, 'message'), 'message', '100'), author: account }).id } };
      },
    },
    {
      method: 'POST',
      url: '/:version/:node/replies',
      operation: 'comment',
      handle: ({ store, account, params, body }) => {
        const parent = existing(store, 'instagram', params.node, '100');
        if (parent.kind !== 'comment') throw new PlatformRefusal(400, '100', 'replies go on comments');
        return { body: { id: createComment(store, { account, parent, text: required(field(body, 'message'), 'message', '100'), author: account }).id } };
      },
    },
    {
      method: 'GET',
      url: '/:version/:node/comments',
      operation: 'list_comments',
      handle: ({ store, params }) => {
        const all = store.commentsUnder('instagram', params.node);
        const topLevel = all.filter((item) => item.parentId === params.node);
        return {
          body: {
            data: topLevel.map((comment) => ({
              ...commentJson(comment),
              replies: { data: all.filter((reply) => reply.parentId === comment.id).map(commentJson) },
            })),
          },
        };
      },
    },
  ],
};

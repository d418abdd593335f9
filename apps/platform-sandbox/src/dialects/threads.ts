import { threadsLength } from '@app/platforms/content/text-length';
import { existing, field, NewComment, PlatformDialect, PlatformRefusal, required, rootPostId, RouteContext } from '../dialect';
import type { SandboxItem, SandboxStore } from '../store';
import { containerMedia, graphError, graphId, graphRateLimited, graphUnauthorized, requireActingFor, stringParam, takeContainer } from './meta-graph';

function ownerOf(node: string, account: string): string {
  return node === 'me' ? account : node;
}

function createComment(store: SandboxStore, { account, parent, text, author }: NewComment): SandboxItem {
  return store.add({
    platform: 'threads', account, owner: author, id: graphId(store), kind: 'comment', text, mediaUrls: [],
    parentId: parent.id, postId: rootPostId(parent), author, extra: {},
  });
}

function permalink(item: SandboxItem): string {
  return `https://www.threads.net/@${item.author}/post/${BigInt(item.id).toString(36)}`;
}

/**
 * A Threads user's edges take only that user's token ("me" names it): Threads "Posts"
 * (https://developers.facebook.com/docs/threads/posts); another user's id is Graph's permission error #10.
 */
function requireThreadsUser(ctx: RouteContext): void {
  requireActingFor(ctx.identity, (identity) => identity.platform === 'threads' && (ctx.params.node === 'me' || ctx.params.node === identity.platformAccountId), '10',
    `(#10) The user does not have permission to act for Threads user ${ctx.params.node}`);
}

/** Threads API: containers on /{threads-user-id}/threads, /threads_publish, replies via reply_to_id. */
export const threadsDialect: PlatformDialect = {
  platform: 'threads',
  error: graphError,
  unauthorized: graphUnauthorized,
  rateLimited: graphRateLimited,
  createComment,
  routes: [
    {
      method: 'POST',
      url: '/:version/:node/threads',
      operation: 'container',
      handle: (ctx) => {
        requireThreadsUser(ctx);
        const { store, account, params, body } = ctx;
        const input = (body ?? {}) as Record<string, unknown>;
        const mediaType = required(input.media_type, 'media_type', '100');
        if (mediaType === 'TEXT') required(input.text, 'text', '100');
        // "Text posts are limited to 500 characters. Emojis are counted as the number of UTF-8 bytes."
        // ("Threads Posts", Limitations: https://developers.facebook.com/documentation/threads/posts)
        const text = stringParam(input, 'text');
        if (text !== undefined && threadsLength(text) > 500) throw new PlatformRefusal(400, '100', 'Invalid parameter: text is longer than 500 characters (emoji counted as UTF-8 bytes)');
        if (mediaType === 'IMAGE') required(input.image_url, 'image_url', '100');
        if (mediaType === 'VIDEO') required(input.video_url, 'video_url', '100');
        const replyTo = stringParam(input, 'reply_to_id');
        if (replyTo) existing(store, 'threads', replyTo, '100');
        const id = graphId(store);
        store.pending.set(id, { platform: 'threads', account, owner: ownerOf(params.node, account), params: input, consumedBy: null });
        return { body: { id } };
      },
    },
    {
      method: 'POST',
      url: '/:version/:node/threads_publish',
      operation: ({ store, body }) => (stringParam(store.pending.get(String(field(body, 'creation_id')))?.params ?? {}, 'reply_to_id') ? 'comment' : 'publish'),
      handle: (ctx) => {
        requireThreadsUser(ctx);
        const { store, account, params, body } = ctx;
        const container = takeContainer(store, account, required(field(body, 'creation_id'), 'creation_id', '100'));
        const text = stringParam(container.params, 'text') ?? '';
        const replyTo = stringParam(container.params, 'reply_to_id');
        const owner = ownerOf(params.node, account);
        const item = replyTo
          ? createComment(store, { account, parent: existing(store, 'threads', replyTo, '100'), text, author: owner })
          : store.add({
              platform: 'threads', account, owner, id: graphId(store), kind: 'post', text, mediaUrls: containerMedia(store, container.params),
              parentId: null, postId: null, author: owner, extra: {},
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
        if (store.pending.has(params.node)) return { body: { id: params.node, status: 'FINISHED' } };
        const item = existing(store, 'threads', params.node, '100');
        return { body: { id: item.id, permalink: permalink(item) } };
      },
    },
    {
      method: 'GET',
      url: '/:version/:node/threads',
      operation: 'lookup',
      handle: (ctx) => {
        requireThreadsUser(ctx);
        const { store, account, params } = ctx;
        return { body: { data: store.postsOf('threads', account, ownerOf(params.node, account)).map((item) => ({ id: item.id, text: item.text, permalink: permalink(item) })) } };
      },
    },
    {
      method: 'GET',
      url: '/:version/:node/conversation',
      operation: 'list_comments',
      handle: ({ store, params }) => {
        if (store.find('threads', params.node) === undefined) throw new PlatformRefusal(400, '100', `object ${params.node} does not exist`);
        return {
          body: {
            data: store.commentsUnder('threads', params.node).map((item) => ({
              id: item.id,
              text: item.text,
              username: item.author,
              timestamp: item.createdAt.replace(/\.\d+Z$/, '+0000'),
              permalink: permalink(item),
              replied_to: { id: item.parentId },
            })),
          },
        };
      },
    },
  ],
};

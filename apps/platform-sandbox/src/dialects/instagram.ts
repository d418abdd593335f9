import { codePointLength, hashtagCount, mentionCount } from '@app/platforms/content/text-length';
import { existing, field, NewComment, PlatformDialect, PlatformRefusal, required, rootPostId, RouteContext } from '../dialect';
import type { SandboxIdentity } from '../auth/authority';
import type { SandboxItem, SandboxStore } from '../store';
import { businessUseCaseLimited, containerMedia, graphError, graphId, graphUnauthorized, requireActingFor, stringParam, takeContainer } from './meta-graph';

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

/**
 * IG User Media, `caption`: "Maximum 2200 characters, 30 hashtags, and 20 @ tags"
 * (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media),
 * refused with the codes of Instagram's "Error Codes" page: 36004 for the caption (its
 * advice names all three limits), 100 for too many @ tags.
 */
function checkCaption(caption: string): void {
  const length = codePointLength(caption);
  if (length > 2_200) {
    throw new PlatformRefusal(400, '36004', `The submitted image's caption was ${length} characters long. The maximum number of characters permitted for a caption is 2200. Please submit media with a shorter caption.`);
  }
  if (hashtagCount(caption) > 30) throw new PlatformRefusal(400, '36004', 'The submitted caption has more than 30 hashtags. Please submit media with fewer hashtags.');
  if (mentionCount(caption) > 20) throw new PlatformRefusal(400, '100', 'Cannot use more than 20 tags per created media.');
}

/**
 * An IG user's media edges take the token of the Facebook user who manages it ("All requests
 * must include the app user's User access token": Instagram "Content Publishing",
 * https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/content-publishing),
 * or one the sandbox signed in as the account itself; anything else is Graph's permission error #10.
 */
function requireInstagramActor(ctx: RouteContext): void {
  const isTarget = (identity: SandboxIdentity) => identity.platform === 'instagram' && identity.platformAccountId === ctx.params.node;
  requireActingFor(ctx.identity, (identity) => isTarget(identity) || ctx.store.auth.managedBy(identity.key).some(isTarget), '10',
    `(#10) The user does not have permission to act for Instagram account ${ctx.params.node}`);
}

/** Instagram Graph API: containers on /{ig-user-id}/media, /media_publish, comments and replies. */
export const instagramDialect: PlatformDialect = {
  platform: 'instagram',
  error: graphError,
  unauthorized: graphUnauthorized,
  rateLimited: businessUseCaseLimited('80002', 'instagram', 'There have been too many calls to this Instagram account. Wait a bit and try again.'),
  createComment,
  routes: [
    {
      method: 'POST',
      url: '/:version/:node/media',
      operation: 'container',
      handle: (ctx) => {
        requireInstagramActor(ctx);
        const { store, account, params, body } = ctx;
        const input = (body ?? {}) as Record<string, unknown>;
        const carousel = stringParam(input, 'media_type') === 'CAROUSEL' && stringParam(input, 'children');
        if (!carousel && !stringParam(input, 'image_url') && !stringParam(input, 'video_url')) {
          throw new PlatformRefusal(400, '100', 'The parameter image_url or video_url is required');
        }
        const caption = stringParam(input, 'caption');
        if (caption !== undefined) checkCaption(caption);
        const id = graphId(store);
        store.pending.set(id, { platform: 'instagram', account, owner: params.node, params: input, consumedBy: null });
        return { body: { id } };
      },
    },
    {
      method: 'POST',
      url: '/:version/:node/media_publish',
      operation: 'publish',
      handle: (ctx) => {
        requireInstagramActor(ctx);
        const { store, account, params, body } = ctx;
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
      handle: (ctx) => {
        requireInstagramActor(ctx);
        const { store, account, params } = ctx;
        return { body: { data: store.postsOf('instagram', account, params.node).map((item) => ({ id: item.id, caption: item.text, permalink: permalink(item) })) } };
      },
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

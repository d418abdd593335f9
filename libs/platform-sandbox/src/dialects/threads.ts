import { threadsLength } from '@app/platforms/content/text-length';
import { existing, field, NewComment, PlatformDialect, PlatformRefusal, required, rootPostId, RouteContext } from '../dialect';
import type { PendingObject, SandboxItem, SandboxStore } from '../store';
import type { SandboxMediaDescription } from '../media-host';
import {
  attachContainerMedia,
  carouselChildren,
  containerMedia,
  containerOrItemRoute,
  mediaInsightsRoute,
  createContainer,
  graphBooleanParam,
  graphError,
  graphId,
  graphRateLimited,
  graphUnauthorized,
  mediaListing,
  pullableMedia,
  publishContainer,
  pullIntoContainer,
  requireActingFor,
  stringParam,
  GRAPH_MODERATION_REFUSALS,
  graphPermissionRefusal,
} from './meta-graph';
import { GIB, MIB } from './uploaded-media';
import { commentOnOwnPost, ownComment } from './moderation';
import { followerCount, itemCounts } from './metrics-growth';

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


/**
 * An IMAGE container's media as Threads checks it when the container is made (Media
 * Specifications, https://developers.facebook.com/docs/threads/overview: JPEG or PNG, 8 MB
 * at most, aspect ratio limit 10:1). Threads documents no codes for these: Graph's invalid
 * parameter (100) with what is wrong.
 */
function checkImage(url: string): SandboxMediaDescription {
  const media = pullableMedia(url);
  if (!media) throw new PlatformRefusal(400, '100', `Invalid parameter: the image could not be downloaded from ${url}`);
  if (media.contentType !== 'image/jpeg' && media.contentType !== 'image/png') throw new PlatformRefusal(400, '100', 'Invalid parameter: images must be JPEG or PNG');
  if (media.bytes > 8 * MIB) throw new PlatformRefusal(400, '100', 'Invalid parameter: images must be 8 MB at most');
  const ratio = media.width && media.height ? media.width / media.height : null;
  if (ratio !== null && (ratio > 10 || ratio < 1 / 10)) throw new PlatformRefusal(400, '100', 'Invalid parameter: the image aspect ratio is beyond 10:1');
  return media;
}

/**
 * What Threads' processing refuses in a video (Media Specifications: MOV or MP4, 5 minutes
 * and 1 GB at most, aspect ratio 0.01:1 to 10:1), as the container's `error_message`
 * ("Threads API Troubleshooting": FAILED_DOWNLOADING_VIDEO, INVALID_DURATION,
 * INVALID_ASPEC_RATIO [sic], FAILED_PROCESSING_VIDEO...), or null.
 */
function videoFailure(media: SandboxMediaDescription | null): string | null {
  if (!media) return 'FAILED_DOWNLOADING_VIDEO';
  if ((media.contentType !== 'video/mp4' && media.contentType !== 'video/quicktime') || media.bytes > GIB) return 'FAILED_PROCESSING_VIDEO';
  if (media.seconds !== null && media.seconds > 5 * 60) return 'INVALID_DURATION';
  const ratio = media.width && media.height ? media.width / media.height : null;
  if (ratio !== null && (ratio < 0.01 || ratio > 10)) return 'INVALID_ASPEC_RATIO';
  return null;
}

/**
 * One container's media ("Threads Posts"): IMAGE by image_url, VIDEO by video_url, each
 * with an optional alt_text ("Accessibility"), or a CAROUSEL of 2 to 20 finished children.
 * A video Threads cannot download or process still makes a container, whose status ends
 * in ERROR.
 */
function createContainerMedia(ctx: RouteContext, id: string, input: Record<string, unknown>, mediaType: string): void {
  const { store, account } = ctx;
  const altText = stringParam(input, 'alt_text') ?? null;
  if (mediaType === 'CAROUSEL') carouselChildren(store, 'threads', account, required(input.children, 'children', '100'), 20);
  if (mediaType === 'IMAGE') {
    const url = required(input.image_url, 'image_url', '100');
    pullIntoContainer(store, 'threads', account, id, url, checkImage(url), altText, null);
  }
  if (mediaType === 'VIDEO') {
    const url = required(input.video_url, 'video_url', '100');
    const media = pullableMedia(url);
    // A video Threads could not download fails at once; one it could is processed first, then finishes or fails.
    pullIntoContainer(store, 'threads', account, id, url, media ?? NOTHING_DOWNLOADED, altText, videoFailure(media));
  }
}

const NOTHING_DOWNLOADED: SandboxMediaDescription = { contentType: 'application/octet-stream', bytes: 0, width: null, height: null, seconds: null, status: 404 };

/**
 * A published post carrying its container's media; with `parent`, a reply (its container had reply_to_id,
 * media or not: "Publishing", https://developers.facebook.com/documentation/threads/reference/publishing).
 */
function addPost(store: SandboxStore, account: string, owner: string, author: string, text: string, creationId: string, container: PendingObject, parent: SandboxItem | null = null): SandboxItem {
  const id = graphId(store);
  return store.add({
    platform: 'threads', account, owner, id, kind: parent ? 'comment' : 'post', text, mediaUrls: containerMedia(store, container.params),
    media: attachContainerMedia(store, 'threads', creationId, container, id), parentId: parent?.id ?? null, postId: parent ? rootPostId(parent) : null, author,
    extra: stringParam(container.params, 'reply_control') ? { reply_control: stringParam(container.params, 'reply_control')! } : {},
  });
}

const REPLY_CONTROLS = ['everyone', 'accounts_you_follow', 'mentioned_only', 'parent_post_author_only', 'followers_only'];

/** Threads API: containers on /{threads-user-id}/threads, /threads_publish, replies via reply_to_id. */
export const threadsDialect: PlatformDialect = {
  platform: 'threads',
  error: graphError,
  insufficientScope: graphPermissionRefusal('10'),
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
        if (!['TEXT', 'IMAGE', 'VIDEO', 'CAROUSEL'].includes(mediaType)) throw new PlatformRefusal(400, '100', `Invalid parameter: media_type ${mediaType}`);
        const replyTo = stringParam(input, 'reply_to_id');
        if (replyTo) existing(store, 'threads', replyTo, '100');
        // reply_control: everyone, accounts_you_follow, mentioned_only, parent_post_author_only or followers_only
        // ("Reply Management", https://developers.facebook.com/docs/threads/reply-management).
        const replyControl = stringParam(input, 'reply_control');
        if (replyControl !== undefined && !REPLY_CONTROLS.includes(replyControl)) throw new PlatformRefusal(400, '100', `Invalid parameter: reply_control ${replyControl}`);
        return createContainer(ctx, 'threads', ownerOf(params.node, account), input, (id) => createContainerMedia(ctx, id, input, mediaType));
      },
    },
    {
      method: 'POST',
      url: '/:version/:node/threads_publish',
      operation: ({ store, body }) => (stringParam(store.pending.get(String(field(body, 'creation_id')))?.params ?? {}, 'reply_to_id') ? 'comment' : 'publish'),
      handle: (ctx) => {
        requireThreadsUser(ctx);
        const { store, account, params } = ctx;
        return publishContainer(ctx, 'threads', (creationId, container) => {
          const replyTo = stringParam(container.params, 'reply_to_id');
          const owner = ownerOf(params.node, account);
          // An item's `username` is the "Threads username who created the post" (Replies and Conversations,
          // https://developers.facebook.com/documentation/threads/retrieve-and-manage-replies/replies-and-conversations): the acting user's (requireThreadsUser).
          const text = stringParam(container.params, 'text') ?? '';
          return addPost(store, account, owner, ctx.identity?.handle ?? owner, text, creationId, container, replyTo ? existing(store, 'threads', replyTo, '100') : null);
        });
      },
    },
    // A container's publishing status and, on ERROR, error_message ("Threads API Troubleshooting").
    // Threads media insights: views, likes, replies, reposts, quotes, shares.
    mediaInsightsRoute('threads', '/{version}/{threads-media-id}/insights', '10', (store, item) => {
      const counts = itemCounts(store, item);
      return { views: counts.impressions, likes: counts.likes, replies: counts.comments, reposts: counts.shares, quotes: counts.quotes, shares: Math.floor(counts.shares / 2) };
    }),
    {
      // User insights (https://developers.facebook.com/docs/threads/insights#user-insights): threads_basic and
      // threads_manage_insights; followers_count is a total ({total_value: {value}}), not a daily series.
      method: 'GET',
      url: '/:version/:node/threads_insights',
      operation: 'metrics',
      handle: ({ store, params, query, identity }) => {
        const user = params.node === 'me' || params.node === identity!.platformAccountId ? identity! : undefined;
        if (!user) throw new PlatformRefusal(403, '10', '(#10) The user does not have permission to read these insights');
        const offered = ['views', 'likes', 'replies', 'reposts', 'quotes', 'clicks', 'followers_count', 'follower_demographics'];
        const asked = required(query.metric, 'metric', '100').split(',');
        const unknown = asked.find((name) => !offered.includes(name));
        if (unknown) throw new PlatformRefusal(400, '100', `(#100) metric[${asked.indexOf(unknown)}] must be one of the following values: ${offered.join(', ')}`);
        const data = asked.map((name) =>
          name === 'followers_count'
            ? { name, period: 'day', title: 'followers_count', description: 'followers_count', total_value: { value: followerCount(store, user) }, id: `${user.platformAccountId}/insights/${name}/day` }
            : { name, period: 'day', title: name, description: name, values: [], id: `${user.platformAccountId}/insights/${name}/day` },
        );
        return { body: { data } };
      },
    },
    containerOrItemRoute('threads', (status, error) => ({ status, ...(error ? { error_message: error } : {}) }), permalink, { container: '/{version}/{threads-container-id}', item: '/{version}/{threads-media-id}' }),
    {
      method: 'GET',
      url: '/:version/:node/threads',
      operation: 'lookup',
      handle: (ctx) => {
        requireThreadsUser(ctx);
        return mediaListing(ctx, ctx.store.postsOf('threads', ctx.account, ownerOf(ctx.params.node, ctx.account)), 'text', permalink);
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
              // Reply Management reference: hide_status HIDDEN once the post's author hid it (NOT_HUSHED otherwise).
              hide_status: store.isHidden(item) ? 'HIDDEN' : 'NOT_HUSHED',
            })),
          },
        };
      },
    },
    {
      // Reply Management, "Hide Replies" (https://developers.facebook.com/docs/threads/reply-management):
      // threads_manage_replies; top-level replies to the user's own posts only (nested ones go with
      // their top-level reply and "cannot be targeted in isolation"); {"success": true}.
      method: 'POST',
      url: '/:version/:node/manage_reply',
      operation: 'hide_comment',
      handle: (ctx) => {
        const hide = graphBooleanParam(ctx, 'hide', 'Invalid parameter: hide must be a boolean');
        const reply = commentOnOwnPost(ctx, 'threads', ctx.params.node, GRAPH_MODERATION_REFUSALS);
        if (reply.parentId !== reply.postId) throw new PlatformRefusal(400, '100', 'Invalid parameter: only top-level replies can be hidden');
        ctx.store.setHidden(reply, hide);
        return { body: { success: true } };
      },
    },
    {
      // Delete Posts (https://developers.facebook.com/docs/threads/posts/delete-posts): threads_delete;
      // the user's own posts and replies; {"success": true, "deleted_id"}.
      method: 'DELETE',
      url: '/:version/:node',
      operation: 'delete_comment',
      handle: (ctx) => {
        const reply = ownComment(ctx, 'threads', ctx.params.node, GRAPH_MODERATION_REFUSALS);
        ctx.store.remove(reply);
        return { body: { success: true, deleted_id: reply.id } };
      },
    },
  ],
};

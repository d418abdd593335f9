import { codePointLength, hashtagCount, mentionCount } from '@app/platforms/content/text-length';
import { existing, field, NewComment, PlatformDialect, PlatformRefusal, PlatformRoute, required, rootPostId, RouteContext } from '../dialect';
import type { SandboxIdentity } from '../auth/authority';
import type { SandboxItem, SandboxStore } from '../store';
import type { SandboxMediaDescription } from '../media-host';
import {
  attachContainerMedia,
  businessUseCaseLimited,
  carouselChildren,
  containerMedia,
  containerOrItemRoute,
  mediaInsightsRoute,
  createContainer,
  graphCommentModerationRoutes,
  graphError,
  graphId,
  graphUnauthorized,
  pullableMedia,
  pullIntoContainer,
  publishContainer,
  requireActingFor,
  stringParam,
  mediaListing,
  graphPermissionRefusal,
} from './meta-graph';
import { MIB } from './uploaded-media';
import { commentAuthor } from './comment-author';
import { followerCount, itemCounts } from './metrics-growth';

/** Instagram keeps replies one level deep: a reply to a reply joins the top-level comment. */
function createComment(store: SandboxStore, { account, parent, text, author }: NewComment): SandboxItem {
  const topLevel = parent.kind === 'comment' && parent.parentId !== parent.postId ? existing(store, 'instagram', parent.parentId ?? '') : parent;
  return store.add({
    platform: 'instagram', account, owner: author, id: graphId(store), kind: 'comment', text, mediaUrls: [],
    parentId: topLevel.id, postId: rootPostId(parent), author, extra: {},
  });
}

/**
 * An IG Comment; `hidden` tells whether the media's owner hid it (IG Comment reference, Fields,
 * https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-comment/).
 * `username` and `from` {id, username} name its creator ("from — returns an object containing the
 * IGSID (id) and username", https://developers.facebook.com/docs/graph-api/changelog/ooc-changes/oct-20-2021):
 * the professional account's own id and username on its replies.
 */
function commentJson(store: SandboxStore, item: SandboxItem) {
  const author = commentAuthor(store, item, (name) => `ig-user-${name}`);
  return {
    id: item.id, text: item.text, username: author.handle, from: { id: author.id, username: author.handle },
    timestamp: item.createdAt.replace(/\.\d+Z$/, '+0000'), hidden: store.isHidden(item),
  };
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


/**
 * An image container's media as Instagram checks it when the container is made (IG User
 * Media, image specifications: JPEG, 8 MB at most, aspect ratio 4:5 to 1.91:1), refused
 * with the codes of Instagram's Error Codes page
 * (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/error-codes).
 */
function checkImage(url: string): SandboxMediaDescription {
  const media = pullableMedia(url);
  if (!media) throw new PlatformRefusal(400, '9004/2207052', `The media could not be fetched from this URI: ${url}`);
  if (media.contentType !== 'image/jpeg') throw new PlatformRefusal(400, '36001/2207005', 'The image format is not supported. Supported formats are: JPEG');
  if (media.bytes > 8 * MIB) throw new PlatformRefusal(400, '36000/2207004', 'The image is too large to download. It should be less than 8 MiB.');
  const ratio = media.width && media.height ? media.width / media.height : null;
  if (ratio !== null && (ratio < 4 / 5 || ratio > 1.91)) {
    throw new PlatformRefusal(400, '36003/2207009', `The submitted image with aspect ratio ('${media.width}/${media.height}') cannot be published. Please submit an image with a valid aspect ratio.`);
  }
  return media;
}

/**
 * What Instagram's processing refuses in a video (Reels specifications: MOV or MP4, 3 s to
 * 15 min, 300 MB, aspect ratio 0.01:1 to 10:1), reported as the container's ERROR status
 * (IG Container `status`: "Error: ...", with the Error Codes page's subcodes), or null.
 */
function videoFailure(media: SandboxMediaDescription): string | null {
  if (media.contentType !== 'video/mp4' && media.contentType !== 'video/quicktime') return 'Error: Media upload has failed with error code 2207026 (unsupported video format)';
  if (media.bytes > 300 * MIB) return 'Error: Media upload has failed with error code 2207026 (the video is larger than 300 MB)';
  if (media.seconds !== null && (media.seconds < 3 || media.seconds > 15 * 60)) return 'Error: Media upload has failed with error code 2207026 (duration must be 3 s to 15 min)';
  const ratio = media.width && media.height ? media.width / media.height : null;
  if (ratio !== null && (ratio < 0.01 || ratio > 10)) return 'Error: Media upload has failed with error code 2207026 (aspect ratio must be 0.01:1 to 10:1)';
  return null;
}

/**
 * One container's media (IG User Media): an image by image_url (alt_text taken: "introduced
 * ... for image posts"), a reel by media_type=REELS and video_url ("Reels and stories are
 * not supported" for alt_text, so it is not kept), a carousel video as media_type=VIDEO
 * with is_carousel_item (VIDEO alone is no longer supported since November 9, 2023), or a
 * CAROUSEL of up to 10 finished children.
 */
function createContainerMedia(ctx: RouteContext, id: string, input: Record<string, unknown>): void {
  const { store, account } = ctx;
  const mediaType = stringParam(input, 'media_type');
  const carouselItem = stringParam(input, 'is_carousel_item') === 'true';
  if (mediaType === 'CAROUSEL') {
    carouselChildren(store, 'instagram', account, required(input.children, 'children', '100'), 10);
    return;
  }
  if (mediaType === 'STORIES') {
    createStoryMedia(ctx, id, input, carouselItem);
    return;
  }
  if (mediaType === 'REELS' && carouselItem) throw new PlatformRefusal(400, '100', 'Reels cannot appear in carousels: use media_type=VIDEO for a carousel item');
  if (mediaType === 'VIDEO' && !carouselItem) throw new PlatformRefusal(400, '100', 'The VIDEO media type is no longer supported for a single post: use REELS');
  if (mediaType === 'REELS' || mediaType === 'VIDEO') {
    const url = required(input.video_url, 'video_url', '100');
    const media = pullableMedia(url);
    if (!media) throw new PlatformRefusal(400, '9004/2207052', `The media could not be fetched from this URI: ${url}`);
    pullIntoContainer(store, 'instagram', account, id, url, media, null, videoFailure(media));
    return;
  }
  if (mediaType !== undefined && mediaType !== 'IMAGE') throw new PlatformRefusal(400, '100/2207023', `The media type ${mediaType} is not one of the expected media types.`);
  const url = required(input.image_url, 'image_url', '100');
  pullIntoContainer(store, 'instagram', account, id, url, checkImage(url), stringParam(input, 'alt_text') ?? null, null);
}

/**
 * A story container (IG User Media, `media_type=STORIES`, story image and video specifications):
 * one `image_url` (JPEG, at most 8 MB; any aspect ratio, 9:16 recommended) or one `video_url`
 * (MOV or MP4, 3 to 60 seconds, at most 100 MB); never a carousel item. Stories take no alt text.
 */
function createStoryMedia(ctx: RouteContext, id: string, input: Record<string, unknown>, carouselItem: boolean): void {
  const { store, account } = ctx;
  if (carouselItem) throw new PlatformRefusal(400, '100', 'Stories cannot appear in carousels');
  const videoUrl = stringParam(input, 'video_url');
  const url = videoUrl ?? required(input.image_url, 'image_url or video_url', '100');
  const media = pullableMedia(url);
  if (!media) throw new PlatformRefusal(400, '9004/2207052', `The media could not be fetched from this URI: ${url}`);
  if (videoUrl) {
    const tooLong = media.seconds !== null && (media.seconds < 3 || media.seconds > 60) ? 'Error: Media upload has failed with error code 2207026 (a story video must be 3 to 60 seconds)' : null;
    const tooLarge = media.bytes > 100 * MIB ? 'Error: Media upload has failed with error code 2207026 (a story video is at most 100 MB)' : null;
    pullIntoContainer(store, 'instagram', account, id, url, media, null, videoFailure(media) ?? tooLong ?? tooLarge);
    return;
  }
  if (media.contentType !== 'image/jpeg') throw new PlatformRefusal(400, '36001/2207005', 'The image format is not supported. Supported formats are: JPEG');
  if (media.bytes > 8 * MIB) throw new PlatformRefusal(400, '36000/2207004', 'The image is too large to download. It should be less than 8 MiB.');
  pullIntoContainer(store, 'instagram', account, id, url, media, null, null);
}

/**
 * What a published item keeps of its container's kind: a story (no caption shown) or a reel and
 * whether it is shared to the feed (`share_to_feed`, absent: true, IG User Media).
 */
function placementOf(params: Record<string, unknown>): Record<string, string> {
  const mediaType = stringParam(params, 'media_type');
  if (mediaType === 'STORIES') return { media_type: 'STORIES' };
  if (mediaType === 'REELS') return { media_type: 'REELS', share_to_feed: stringParam(params, 'share_to_feed') ?? 'true' };
  return {};
}

/**
 * A comment with `message` on the node of the path: on media (POST /{ig-media-id}/comments) or, as
 * a reply, on a comment (POST /{ig-comment-id}/replies); a node of the other kind is refused.
 */
function commentRoute(url: string, parentKind: SandboxItem['kind'], wrongParent: string): PlatformRoute {
  return {
    method: 'POST',
    url,
    operation: 'comment',
    handle: ({ store, account, params, body }) => {
      const parent = existing(store, 'instagram', params.node, '100');
      if (parent.kind !== parentKind) throw new PlatformRefusal(400, '100', wrongParent);
      return { body: { id: createComment(store, { account, parent, text: required(field(body, 'message'), 'message', '100'), author: account }).id } };
    },
  };
}

/** Instagram Graph API: containers on /{ig-user-id}/media, /media_publish, comments and replies. */
export const instagramDialect: PlatformDialect = {
  platform: 'instagram',
  error: graphError,
  insufficientScope: graphPermissionRefusal('10'),
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
        const input = (ctx.body ?? {}) as Record<string, unknown>;
        const caption = stringParam(input, 'caption');
        if (caption !== undefined) checkCaption(caption);
        return createContainer(ctx, 'instagram', ctx.params.node, input, (id) => createContainerMedia(ctx, id, input));
      },
    },
    {
      method: 'POST',
      url: '/:version/:node/media_publish',
      operation: 'publish',
      handle: (ctx) => {
        requireInstagramActor(ctx);
        const { store, account, params } = ctx;
        return publishContainer(ctx, 'instagram', (creationId, container) => {
          const id = graphId(store);
          return store.add({
            platform: 'instagram', account, owner: params.node, id, kind: 'post',
            // A story shows no caption.
            text: stringParam(container.params, 'media_type') === 'STORIES' ? '' : (stringParam(container.params, 'caption') ?? ''), mediaUrls: containerMedia(store, container.params),
            media: attachContainerMedia(store, 'instagram', creationId, container, id),
            parentId: null, postId: null, author: params.node, extra: placementOf(container.params),
          });
        });
      },
    },
    // IG Container: status_code, and status telling why when it is ERROR.
    // The IG User itself: followers_count, follows_count, media_count ("IG User", https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user).
    containerOrItemRoute(
      'instagram',
      (status, error) => ({ status_code: status, ...(error ? { status: error } : {}) }),
      permalink,
      { container: '/{version}/{ig-container-id}', item: '/{version}/{ig-media-id}', user: '/{version}/{ig-user-id}' },
      (store, user, fields) => {
        const all: Record<string, unknown> = { username: user.handle, name: user.displayName, followers_count: followerCount(store, user), follows_count: 42, media_count: store.postsOf('instagram', user.key).length };
        return Object.fromEntries(fields.filter((name) => name in all).map((name) => [name, all[name]]));
      },
    ),
    // IG Media insights: views, reach, likes, comments, shares, saved, total_interactions (impressions, plays and video_views are deprecated).
    mediaInsightsRoute('instagram', '/{version}/{ig-media-id}/insights', '10', (store, item) => {
      const counts = itemCounts(store, item);
      return { views: counts.impressions, reach: counts.reach, likes: counts.likes, comments: counts.comments, shares: counts.shares, saved: counts.saves, total_interactions: counts.likes + counts.comments + counts.shares + counts.saves };
    }),
    {
      method: 'GET',
      url: '/:version/:node/media',
      operation: 'lookup',
      handle: (ctx) => {
        requireInstagramActor(ctx);
        return mediaListing(ctx, ctx.store.postsOf('instagram', ctx.account, ctx.params.node), 'caption', permalink);
      },
    },
    commentRoute('/:version/:node/comments', 'post', 'comments go on media; reply to a comment with /replies'),
    commentRoute('/:version/:node/replies', 'comment', 'replies go on comments'),
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
              ...commentJson(store, comment),
              replies: { data: all.filter((reply) => reply.parentId === comment.id).map((reply) => commentJson(store, reply)) },
            })),
          },
        };
      },
    },
    // IG Comment reference (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-comment/):
    // `hide` on a comment on the account's media; the account deletes its own comments and any on its media.
    ...graphCommentModerationRoutes('instagram', 'hide'),
  ],
};

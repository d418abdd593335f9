import { existing, field, NewComment, PlatformDialect, PlatformRefusal, required, rootPostId, RouteAnswer, RouteContext } from '../dialect';
import { isSandboxFilePart } from '../multipart';
import { namedToFailProcessing, SandboxItem, SandboxStore, SandboxUpload } from '../store';
import { businessUseCaseLimited, graphCommentModerationRoutes, graphError, graphId, graphPermissionRefusal, graphUnauthorized, mediaInsightsRoute, pullableMedia, requireActingFor, stringParam } from './meta-graph';
import { followerCount, itemCounts } from './metrics-growth';
import { GIB, inspectUpload, MIB } from './uploaded-media';
import { createdSince, graphTime, pageOf, pageSize } from './listing';
import { commentAuthor } from './comment-author';

function createComment(store: SandboxStore, { account, parent, text, author }: NewComment): SandboxItem {
  const postId = rootPostId(parent);
  return store.add({
    platform: 'facebook', account, owner: author, id: `${postId.split('_').pop()}_${store.nextSeq()}`, kind: 'comment',
    text, mediaUrls: [], parentId: parent.id, postId, author, extra: {},
  });
}

function facebookFrom(store: SandboxStore, item: SandboxItem) {
  const author = commentAuthor(store, item, (name) => `fb-user-${name}`);
  return { name: author.displayName, id: author.id };
}

function commentJson(store: SandboxStore, item: SandboxItem) {
  return {
    id: item.id,
    message: item.text,
    created_time: item.createdAt.replace(/\.\d+Z$/, '+0000'),
    // Comment reference (https://developers.facebook.com/docs/graph-api/reference/comment/): `from` is
    // "the person that made this comment" ({name, id}); a Page's own reply names the Page by its id and name.
    from: facebookFrom(store, item),
    permalink_url: `https://www.facebook.com/${item.postId}?comment_id=${item.id}`,
    ...(item.parentId !== item.postId ? { parent: { id: item.parentId } } : {}),
    // Comment reference (https://developers.facebook.com/docs/graph-api/reference/comment/): hidden
    // comments stay in the Page's listing, marked is_hidden.
    is_hidden: store.isHidden(item),
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

/** Photo reference (https://developers.facebook.com/docs/graph-api/reference/photo/): less than 10 MB. */
const PHOTO_MAX_BYTES = 10 * MIB - 1;
/** "Uploading Photos" (https://developers.facebook.com/docs/graph-api/photo-uploads): JPEG, BMP, PNG, GIF, TIFF (those the sandbox can recognise). */
const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/gif'];
/** "Uploading Videos" (https://developers.facebook.com/docs/graph-api/video-uploads), resumable upload: up to 1.75 GB (and 45 minutes). */
const VIDEO_MAX_BYTES = 1.75 * GIB;
/** The byte range the sandbox asks for per transfer (Graph chooses it; clients send what start/end_offset name). */
const TRANSFER_CHUNK_BYTES = 1 * MIB;

/**
 * A photo for `POST /{page-id}/photos`: the bytes as the multipart part `source`, or a `url`
 * Graph downloads (Uploading Photos, "To specify a photo you can use two methods").
 * A missing or unreadable image is Graph's #324.
 */
function receivedPhoto(ctx: RouteContext, id: string, altText: string | null): SandboxUpload {
  const { store, account, body } = ctx;
  const source = field(body, 'source');
  const url = stringParam((body ?? {}) as Record<string, unknown>, 'url');
  let found: { contentType: string; bytes: number; width: number | null; height: number | null } | null = null;
  if (isSandboxFilePart(source)) found = { ...inspectUpload(source.head), bytes: source.size };
  else if (url) {
    const media = pullableMedia(url);
    if (media) found = { contentType: media.contentType, bytes: media.bytes, width: media.width, height: media.height };
  }
  if (!found || !PHOTO_TYPES.includes(found.contentType)) throw new PlatformRefusal(400, '324', '(#324) Requires upload file: missing or invalid image file');
  if (found.bytes > PHOTO_MAX_BYTES) throw new PlatformRefusal(400, '100', '(#100) The photo must be less than 10 MB');
  return store.addUpload({
    platform: 'facebook', account, id, contentType: found.contentType, declaredBytes: found.bytes, receivedBytes: found.bytes,
    width: found.width, height: found.height, durationSeconds: null, altText, state: 'ready', readyAt: Date.now(), extra: { kind: 'photo' },
  });
}

/**
 * `attached_media[n]={"media_fbid":"<id>"}` of a feed post (Page Feed reference): this page's
 * unpublished photos, each attached once; anything else is an invalid parameter.
 */
function attachedPhotos(ctx: RouteContext): SandboxUpload[] {
  const input = (ctx.body ?? {}) as Record<string, unknown>;
  const entries = Object.keys(input)
    .map((key) => [key, /^attached_media\[(\d+)\]$/.exec(key)] as const)
    .filter((entry): entry is readonly [string, RegExpExecArray] => entry[1] !== null)
    .sort((a, b) => Number(a[1][1]) - Number(b[1][1]));
  return entries.map(([key]) => {
    let mediaFbid: unknown;
    try {
      mediaFbid = field(JSON.parse(String(input[key])), 'media_fbid');
    } catch {
      mediaFbid = undefined;
    }
    const photo = typeof mediaFbid === 'string' ? ctx.store.upload('facebook', mediaFbid) : undefined;
    if (!photo || photo.account !== ctx.account || photo.extra.kind !== 'photo' || photo.extra.unpublished !== 'true') {
      throw new PlatformRefusal(400, '100', `(#100) param ${key} must be an unpublished photo of this page`);
    }
    if (photo.attachedTo) throw new PlatformRefusal(400, '100', `(#100) The photo in ${key} is already attached to ${photo.attachedTo}`);
    return photo;
  });
}

function newPost(ctx: RouteContext, text: string, media: SandboxUpload[], options: { id?: string; mediaUrls?: string[]; kind?: string } = {}): SandboxItem {
  const { store, account, params } = ctx;
  const item = store.add({
    platform: 'facebook', account, owner: params.node, id: options.id ?? `${params.node}_${store.nextSeq()}`, kind: 'post',
    text, mediaUrls: options.mediaUrls ?? [], media, parentId: null, postId: null, author: params.node, extra: options.kind ? { kind: options.kind } : {},
  });
  for (const upload of media) upload.attachedTo = item.id;
  return item;
}

/** The upload session a transfer or finish names: made by this account's start phase. */
function uploadSession(ctx: RouteContext): { session: string; video: SandboxUpload } {
  const session = required(field(ctx.body, 'upload_session_id'), 'upload_session_id', '100');
  const pending = ctx.store.pending.get(session);
  const video = pending && pending.platform === 'facebook' && pending.account === ctx.account ? ctx.store.upload('facebook', String(pending.params.video_id)) : undefined;
  if (!pending || !video) throw new PlatformRefusal(400, '100', `(#100) Invalid upload_session_id ${session}`);
  if (pending.consumedBy) throw new PlatformRefusal(400, '100', `(#100) The upload session ${session} is finished`);
  return { session, video };
}

/** The byte range Graph asks for next: from what arrived, one transfer chunk at most (equal offsets once every byte arrived). */
function nextRange(video: SandboxUpload): { start_offset: string; end_offset: string } {
  return { start_offset: String(video.receivedBytes), end_offset: String(Math.min(video.receivedBytes + TRANSFER_CHUNK_BYTES, video.declaredBytes)) };
}

/**
 * The resumable video upload on `POST /{page-id}/videos` (Uploading Videos, "Resumable
 * Upload"): `upload_phase=start` (file_size) answers video_id, upload_session_id and the
 * first start/end_offset; `transfer` takes `video_file_chunk` at `start_offset` and answers
 * the next range (a range sent again is answered with the current one, as a retried chunk
 * needs); `finish` publishes the video with its description, which Facebook then processes.
 * A format it does not take is #352.
 */
function videoPhase(ctx: RouteContext): RouteAnswer {
  const { store, account, params, body } = ctx;
  const phase = required(field(body, 'upload_phase'), 'upload_phase', '100');
  if (phase === 'start') {
    const size = Number(required(field(body, 'file_size'), 'file_size', '100'));
    if (!Number.isSafeInteger(size) || size <= 0) throw new PlatformRefusal(400, '100', '(#100) file_size must be a positive number of bytes');
    if (size > VIDEO_MAX_BYTES) throw new PlatformRefusal(400, '100', '(#100) The video is larger than 1.75 GB, the most the resumable upload takes');
    const videoId = graphId(store);
    const session = graphId(store);
    const video = store.addUpload({
      platform: 'facebook', account, id: videoId, contentType: 'application/octet-stream', declaredBytes: size, receivedBytes: 0,
      width: null, height: null, durationSeconds: null, altText: null, state: 'uploading', readyAt: Date.now(), extra: { kind: 'video' },
    });
    store.pending.set(session, { platform: 'facebook', account, owner: params.node, params: { video_id: videoId }, consumedBy: null });
    return { body: { video_id: videoId, upload_session_id: session, ...nextRange(video) } };
  }
  const { session, video } = uploadSession(ctx);
  if (phase === 'transfer') {
    const chunk = field(body, 'video_file_chunk');
    if (!isSandboxFilePart(chunk)) throw new PlatformRefusal(400, '100', '(#100) video_file_chunk is required');
    const offset = Number(required(field(body, 'start_offset'), 'start_offset', '100'));
    if (offset < video.receivedBytes) return { body: nextRange(video) };
    if (offset !== video.receivedBytes || offset + chunk.size > video.declaredBytes) {
      throw new PlatformRefusal(400, '100', `(#100) start_offset ${offset} does not match the upload (expected ${video.receivedBytes})`);
    }
    if (offset === 0) {
      const found = inspectUpload(chunk.head);
      if (found.contentType !== 'video/mp4' && found.contentType !== 'video/quicktime') {
        throw new PlatformRefusal(400, '352', "(#352) Sorry, the video file you selected is in a format that we don't support.");
      }
      // "Resumable upload supports uploading videos that are up to 1.75GB and 45 minutes long";
      // "The aspect ratio of the video must be between 9x16 and 16x9" (Uploading Videos).
      if (found.durationSeconds !== null && found.durationSeconds > 45 * 60) throw new PlatformRefusal(400, '100', '(#100) The video is longer than 45 minutes');
      const ratio = found.width && found.height ? found.width / found.height : null;
      if (ratio !== null && (ratio < 9 / 16 || ratio > 16 / 9)) throw new PlatformRefusal(400, '100', '(#100) The aspect ratio of the video must be between 9x16 and 16x9');
      Object.assign(video, found);
      // The name the file was sent under: a file named to fail fails processing (namedToFailProcessing).
      video.extra.fileName = chunk.filename;
    }
    video.receivedBytes += chunk.size;
    return { body: nextRange(video) };
  }
  if (phase !== 'finish') throw new PlatformRefusal(400, '100', `(#100) Invalid upload_phase ${phase}`);
  if (video.receivedBytes < video.declaredBytes) throw new PlatformRefusal(400, '100', `(#100) The upload is incomplete: ${video.receivedBytes} of ${video.declaredBytes} bytes`);
  store.startProcessing(video, namedToFailProcessing(video.extra.fileName ?? '') ? 'The video could not be processed' : null);
  const item = newPost(ctx, stringParam((body ?? {}) as Record<string, unknown>, 'description') ?? '', [video], { id: video.id, kind: 'video' });
  store.pending.get(session)!.consumedBy = item.id;
  return { body: { success: true } };
}

/**
 * The sessions of reels ("Reels Publishing API", https://developers.facebook.com/docs/video-api/guides/reels-publishing)
 * and video stories ("Page Stories API", https://developers.facebook.com/docs/page-stories-api):
 * `upload_phase=start` on `/{page-id}/video_reels` or `/{page-id}/video_stories` answers `video_id`
 * and an `upload_url` (rupload.facebook.com there, this sandbox's /video-upload here); the bytes
 * are posted to it (ruploadVideo); `upload_phase=finish` with the `video_id` publishes. A reel is
 * 3 to 90 seconds; a video story at most 60.
 */
const VIDEO_PLACEMENTS = {
  reel: { minSeconds: 3, maxSeconds: 90 },
  story: { minSeconds: 3, maxSeconds: 60 },
} as const;

function placementVideoPhase(ctx: RouteContext, placement: keyof typeof VIDEO_PLACEMENTS): RouteAnswer {
  const { store, account, params, body, baseUrl } = ctx;
  const phase = required(field(body, 'upload_phase'), 'upload_phase', '100');
  if (phase === 'start') {
    const videoId = graphId(store);
    store.addUpload({
      platform: 'facebook', account, id: videoId, contentType: 'application/octet-stream', declaredBytes: 0, receivedBytes: 0,
      width: null, height: null, durationSeconds: null, altText: null, state: 'uploading', readyAt: Date.now(), extra: { kind: placement, page: params.node },
    });
    return { body: { video_id: videoId, upload_url: `${baseUrl}/video-upload/${params.version}/${videoId}` } };
  }
  if (phase !== 'finish') throw new PlatformRefusal(400, '100', `(#100) Invalid upload_phase ${phase}`);
  const videoId = required(field(body, 'video_id'), 'video_id', '100');
  const video = store.upload('facebook', videoId);
  if (!video || video.account !== account || video.extra.kind !== placement || video.extra.page !== params.node) throw new PlatformRefusal(400, '100', `(#100) Invalid video_id ${videoId}`);
  if (video.attachedTo) throw new PlatformRefusal(400, '100', `(#100) The video ${videoId} is already published`);
  if (video.receivedBytes === 0 || video.receivedBytes < video.declaredBytes) throw new PlatformRefusal(400, '100', '(#100) The video upload is incomplete');
  if (video.contentType !== 'video/mp4' && video.contentType !== 'video/quicktime') throw new PlatformRefusal(400, '352', "(#352) Sorry, the video file you selected is in a format that we don't support.");
  const { minSeconds, maxSeconds } = VIDEO_PLACEMENTS[placement];
  if (video.durationSeconds !== null && (video.durationSeconds < minSeconds || video.durationSeconds > maxSeconds)) {
    throw new PlatformRefusal(400, '100', `(#100) A ${placement} must be ${minSeconds} to ${maxSeconds} seconds long`);
  }
  if (placement === 'reel' && field(body, 'video_state') !== 'PUBLISHED') required(undefined, 'video_state', '100');
  store.startProcessing(video, namedToFailProcessing(video.extra.fileName ?? '') ? 'The video could not be processed' : null);
  // A reel shows its description; a story shows no text.
  const item = newPost(ctx, placement === 'reel' ? (stringParam((body ?? {}) as Record<string, unknown>, 'description') ?? '') : '', [video], { id: placement === 'reel' ? video.id : `${params.node}_${store.nextSeq()}`, kind: placement });
  return { body: placement === 'reel' ? { success: true } : { success: true, post_id: item.id } };
}

/**
 * The upload of a reel's or a video story's bytes (Reels Publishing API, step 2): one POST of the
 * file to the session's upload_url with `Authorization: OAuth <page token>`, `offset` and
 * `file_size` headers; answers {"success": true}. Sent again from offset 0, it replaces what came.
 */
function ruploadVideo(ctx: RouteContext): RouteAnswer {
  const { store, headers, params, body } = ctx;
  const authorization = String(headers.authorization ?? '');
  const checked = authorization.startsWith('OAuth ') ? store.auth.check(authorization.slice('OAuth '.length).trim()) : null;
  const video = store.upload('facebook', params.videoId);
  if (!checked?.ok || !video || checked.identity.key !== video.account) throw new PlatformRefusal(401, '190', 'Invalid OAuth access token for this upload');
  const offset = Number(headers.offset);
  const size = Number(headers.file_size);
  if (!Buffer.isBuffer(body) || offset !== 0 || !Number.isSafeInteger(size) || size !== body.length) {
    throw new PlatformRefusal(400, '100', '(#100) The upload needs the file as the body with offset: 0 and file_size headers naming its size');
  }
  if (size > VIDEO_MAX_BYTES) throw new PlatformRefusal(400, '100', '(#100) The video is larger than 1.75 GB');
  Object.assign(video, inspectUpload(body), { declaredBytes: size, receivedBytes: size });
  return { body: { success: true } };
}

/** A feed story's attachment (StoryAttachment): a video, a photo, or an album whose subattachments are its photos. */
function feedAttachment(item: SandboxItem) {
  if (item.extra.kind === 'video' || item.extra.kind === 'reel') return { media_type: 'video', target: { id: item.id, url: permalinkOf(item) } };
  if (item.media.length === 1) return { media_type: 'photo', target: { id: item.media[0].id } };
  return { media_type: 'album', subattachments: { data: item.media.map((photo) => ({ media_type: 'photo', target: { id: photo.id } })) } };
}

function permalinkOf(item: SandboxItem): string {
  if (item.extra.kind === 'reel') return `https://www.facebook.com/reel/${item.id}`;
  return item.extra.kind === 'video' ? `https://www.facebook.com/${item.owner}/videos/${item.id}` : `https://www.facebook.com/${item.id.replace('_', '/posts/')}`;
}

/** Facebook Pages on the Graph API: /{page-id}/feed, /photos and /videos, /{object-id}/comments. */
export const facebookDialect: PlatformDialect = {
  platform: 'facebook',
  error: graphError,
  insufficientScope: graphPermissionRefusal('200'),
  unauthorized: graphUnauthorized,
  rateLimited: businessUseCaseLimited('80001', 'pages', 'There have been too many calls to this Page account. Wait a bit and try again.'),
  createComment,
  routes: [
    // Page post insights (https://developers.facebook.com/docs/graph-api/reference/insights#page-posts): post_impressions,
    // post_total_media_view_unique (post_impressions_unique's replacement), post_clicks, post_reactions_like_total, post_video_views.
    mediaInsightsRoute('facebook', '/{version}/{page-post-id}/insights', '200', (store, item) => {
      const counts = itemCounts(store, item);
      return { post_impressions: counts.impressions, post_total_media_view_unique: counts.reach, post_clicks: counts.clicks, post_reactions_like_total: counts.likes, post_video_views: item.media.some((upload) => upload.contentType.startsWith('video/')) ? counts.views : 0 };
    }),
    {
      // GET /{id}: a Page ("Page", https://developers.facebook.com/docs/graph-api/reference/page#Reading: followers_count,
      // fan_count, name) or one of its posts ("Page Post", https://developers.facebook.com/docs/graph-api/reference/pagepost:
      // `shares` {count}, left out while nobody shared it; `comments.summary(true)` with summary.total_count), read with the
      // Page's token (pages_read_engagement). Another node is #100 "does not exist". Only the metrics readings call it.
      method: 'GET',
      url: '/:version/:node',
      operation: 'metrics',
      documents: { paths: ['/{version}/{page-id}', '/{version}/{page-post-id}'], of: ({ store, params }) => (store.find('facebook', params.node) ? '/{version}/{page-post-id}' : '/{version}/{page-id}') },
      handle: ({ store, params, query, identity }) => {
        const fields = (query.fields ?? 'name').split(',');
        const post = store.find('facebook', params.node);
        if (post) {
          requireActingFor(identity, (acting) => acting.key === post.account, '200', '(#200) The user does not have permission to read this post');
          const counts = itemCounts(store, post);
          const answer: Record<string, unknown> = { id: post.id };
          if (fields.includes('shares') && counts.shares > 0) answer.shares = { count: counts.shares };
          if (fields.some((name) => name.startsWith('comments'))) answer.comments = { data: [], summary: { order: 'ranked', total_count: counts.comments, can_comment: true } };
          return { body: answer };
        }
        // The acting Page itself first (sandbox test accounts may share a platform id), else the Page of that id.
        const page = identity?.platformAccountId === params.node ? identity : store.auth.byPlatformId('facebook', params.node);
        if (!page) throw new PlatformRefusal(400, '100', `(#100) Object with ID '${params.node}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`);
        requireActingFor(identity, (acting) => acting.key === page.key || acting.key === page.ownerKey, '200', '(#200) The user does not have permission to read this Page');
        const all: Record<string, unknown> = { name: page.displayName, followers_count: followerCount(store, page), fan_count: followerCount(store, page) };
        return { body: { id: page.platformAccountId, ...Object.fromEntries(fields.filter((name) => name in all).map((name) => [name, all[name]])) } };
      },
    },
    {
      method: 'POST',
      url: '/:version/:node/feed',
      operation: 'publish',
      handle: (ctx) => {
        requirePageToken(ctx);
        const { body } = ctx;
        const message = field(body, 'message');
        const link = field(body, 'link');
        const photos = attachedPhotos(ctx);
        if (typeof message !== 'string' && typeof link !== 'string' && photos.length === 0) required(undefined, 'message, link or attached_media', '100');
        const item = newPost(ctx, typeof message === 'string' ? message : '', photos, { mediaUrls: typeof link === 'string' ? [link] : [] });
        return { body: { id: item.id } };
      },
    },
    {
      method: 'POST',
      url: '/:version/:node/photos',
      // An unpublished photo is an upload (safe to repeat); a published one is the post.
      operation: ({ body }) => (field(body, 'published') === 'false' ? 'upload' : 'publish'),
      handle: (ctx) => {
        requirePageToken(ctx);
        const input = (ctx.body ?? {}) as Record<string, unknown>;
        const photo = receivedPhoto(ctx, graphId(ctx.store), stringParam(input, 'alt_text_custom') ?? null);
        if (stringParam(input, 'published') === 'false') {
          photo.extra.unpublished = 'true';
          return { body: { id: photo.id } };
        }
        const item = newPost(ctx, stringParam(input, 'caption') ?? stringParam(input, 'message') ?? '', [photo]);
        return { body: { id: photo.id, post_id: item.id } };
      },
    },
    {
      method: 'POST',
      url: '/:version/:node/videos',
      operation: ({ body }) => (field(body, 'upload_phase') === 'finish' ? 'publish' : 'upload'),
      handle: (ctx) => {
        requirePageToken(ctx);
        return videoPhase(ctx);
      },
    },
    {
      method: 'POST',
      url: '/:version/:node/video_reels',
      operation: ({ body }) => (field(body, 'upload_phase') === 'finish' ? 'publish' : 'upload'),
      handle: (ctx) => {
        requirePageToken(ctx);
        return placementVideoPhase(ctx, 'reel');
      },
    },
    {
      method: 'POST',
      url: '/:version/:node/video_stories',
      operation: ({ body }) => (field(body, 'upload_phase') === 'finish' ? 'publish' : 'upload'),
      handle: (ctx) => {
        requirePageToken(ctx);
        return placementVideoPhase(ctx, 'story');
      },
    },
    {
      // Page Stories API, photo stories: `photo_id` of an unpublished photo of this Page; {"success": true, "post_id"}.
      method: 'POST',
      url: '/:version/:node/photo_stories',
      operation: 'publish',
      handle: (ctx) => {
        requirePageToken(ctx);
        const photoId = required(field(ctx.body, 'photo_id'), 'photo_id', '100');
        const photo = ctx.store.upload('facebook', photoId);
        if (!photo || photo.account !== ctx.account || photo.extra.kind !== 'photo' || photo.extra.unpublished !== 'true') {
          throw new PlatformRefusal(400, '100', '(#100) photo_id must be an unpublished photo of this page');
        }
        if (photo.attachedTo) throw new PlatformRefusal(400, '100', `(#100) The photo ${photoId} is already used by ${photo.attachedTo}`);
        const item = newPost(ctx, '', [photo], { kind: 'story' });
        return { body: { success: true, post_id: item.id } };
      },
    },
    {
      // The upload_url of a reel or video story session (rupload.facebook.com/video-upload/{version}/{video-id}).
      method: 'POST',
      url: '/video-upload/:version/:videoId',
      operation: 'upload',
      auth: 'none',
      handle: ruploadVideo,
    },
    {
      method: 'GET',
      url: '/:version/:node/feed',
      operation: 'lookup',
      handle: (ctx) => {
        requirePageToken(ctx);
        // Page Feed (https://developers.facebook.com/docs/graph-api/reference/page/feed): newest first, `since`
        // (epoch seconds) bounds it by creation, `limit` (at most 100) and cursor paging (`after`, with
        // `paging.next` while there is more); `attachments` only when the fields ask for them.
        const { store, account, params, query, baseUrl } = ctx;
        const since = query.since === undefined ? null : Number(query.since) * 1000;
        if (since !== null && !Number.isFinite(since)) throw new PlatformRefusal(400, '100', '(#100) since must be a unix time');
        const size = pageSize(query.limit, { min: 1, max: 100, default: 25 }, (message) => new PlatformRefusal(400, '100', `(#100) ${message}`));
        // Stories are not in the feed (Page Stories API: GET /{page-id}/stories lists them).
        const feed = store.postsOf('facebook', account, params.node).filter((item) => item.extra.kind !== 'story');
        const { page, next } = pageOf(createdSince(feed, since), query.after, size, (message) => new PlatformRefusal(400, '100', `(#100) ${message}`));
        const withAttachments = (query.fields ?? '').includes('attachments');
        const data = page.map((item) => ({
          // A video's story has its own id; its attachment's target is the video.
          id: item.extra.kind === 'video' || item.extra.kind === 'reel' ? `${item.owner}_${item.id}` : item.id,
          message: item.text,
          created_time: graphTime(item.createdAt),
          permalink_url: permalinkOf(item),
          ...(withAttachments && item.media.length > 0 ? { attachments: { data: [feedAttachment(item)] } } : {}),
        }));
        const paging = next ? { cursors: { after: next }, next: `${baseUrl}/${params.version}/${params.node}/feed?after=${next}` } : {};
        return { body: { data, paging } };
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
      handle: ({ store, params }) => ({ body: { data: store.commentsUnder('facebook', params.node).map((item) => commentJson(store, item)), paging: {} } }),
    },
    // Comment reference (https://developers.facebook.com/docs/graph-api/reference/comment/): `is_hidden` hides a
    // comment on the Page's post from everyone but its author; the Page deletes its own comments and those on its posts.
    ...graphCommentModerationRoutes('facebook', 'is_hidden'),
  ],
};

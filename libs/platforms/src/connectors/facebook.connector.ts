import type { MediaFetcher, MediaFile, MediaRef } from '@app/media';
import type { AccountMetricsReading, ItemMetricsReading } from '@app/contracts';
import { countOf, itemMetrics, readingMetrics } from './metrics-reading';
import type { CommentRef, CommentTarget, ConnectorAccount, PlatformComment, PlatformConnector, PublishedLookup, PublishOutcome, PublishRequest } from '../connector';
import { checkText, firstRefusal, requireText, TextRule, unsupportedMedia } from '../content/content-rules';
import { GIB, MIB, PlatformMediaRules, withCheckedMedia } from '../content/media-rules';
import { codePointLength } from '../content/text-length';
import { PlatformCallFailed, PlatformHttp } from '../http/platform-http';
import { failed, malformedAnswer, published, toOutcome, unreadablePublishAnswer } from '../outcome';
import { arrayAt, at, bearer, ConnectorContext, stringAt } from './connector-context';
import { findInWindow, platformTimeMs, PublishedCandidate, windowStartMs } from './published-lookup';
import { uploadAll, uploadFileName } from './media-upload';
import { GRAPH_API_VERSION, graphDeleted, graphHttp, graphInsightValues, graphSucceeded } from './meta-graph';
import { MetaPlacement, metaPlacementShape } from '../options/meta-placement';
import { FacebookOptions, optionsOf } from '../options/platform-options';
import { limitRefusal, PublishLimits } from '../content/publish-limit-rules';

/** A Facebook post's message takes up to 63,206 characters. */
export const FACEBOOK_TEXT: TextRule = { field: 'message', max: 63_206, measure: codePointLength, unit: 'characters' };

/** Photo reference (https://developers.facebook.com/docs/graph-api/reference/photo/): photos must be less than 10 MB. */
const PHOTO_MAX_BYTES = 10 * MIB - 1;

/**
 * Facebook's media rules:
 * - photos: "Uploading Photos" (https://developers.facebook.com/docs/graph-api/photo-uploads)
 *   lists JPEG, BMP, PNG, GIF and TIFF (of those, the pipeline recognises JPEG, PNG and GIF);
 *   less than 10 MB (Photo reference);
 * - several photos make one post through unpublished photos attached to a feed post; Graph
 *   names no maximum for `attached_media`, so the API's own 10 media urls bound it;
 * - video: "Uploading Videos" (https://developers.facebook.com/docs/graph-api/video-uploads),
 *   resumable upload: up to 1.75 GB and 45 minutes, aspect ratio between 9x16 and 16x9
 *   (of its formats, the pipeline recognises MP4 and MOV); a video is a post of its own;
 * - alt text as a photo's `alt_text_custom` (Photo reference), which names no maximum: we
 *   hold it to 1,000 characters. Videos have no alt text field: a video's alt text is dropped.
 */
export const FACEBOOK_MEDIA: PlatformMediaRules = {
  maxItems: 10,
  image: { types: ['image/jpeg', 'image/png'], maxBytes: PHOTO_MAX_BYTES },
  gif: { types: ['image/gif'], maxBytes: PHOTO_MAX_BYTES },
  video: { types: ['video/mp4', 'video/quicktime'], maxBytes: 1.75 * GIB, maxSeconds: 45 * 60, minAspectRatio: 9 / 16, maxAspectRatio: 16 / 9 },
  maxAltText: 1_000,
};

/**
 * A reel ("Reels Publishing API", https://developers.facebook.com/docs/video-api/guides/reels-publishing,
 * video specifications): one video, MP4 recommended, 3 to 90 seconds (9x16 recommended, not required).
 */
export const FACEBOOK_REEL_MEDIA: PlatformMediaRules = {
  maxItems: 1,
  video: { types: ['video/mp4', 'video/quicktime'], maxBytes: 1.75 * GIB, minSeconds: 3, maxSeconds: 90 },
};

/**
 * A Page story ("Page Stories API", https://developers.facebook.com/docs/page-stories-api, media
 * requirements): one photo (the photo specifications: files of at most 10 MB) or one video of
 * 3 to 60 seconds ("Video stories can not exceed 60 seconds"). Stories take no alt text.
 */
export const FACEBOOK_STORY_MEDIA: PlatformMediaRules = {
  maxItems: 1,
  image: FACEBOOK_MEDIA.image,
  gif: FACEBOOK_MEDIA.gif,
  video: { types: ['video/mp4', 'video/quicktime'], maxBytes: 1.75 * GIB, minSeconds: 3, maxSeconds: 60 },
};


/** What Facebook refuses before any request (publish-limit-rules.ts), a reel's or a story's one media item included. */
export const FACEBOOK_LIMITS: PublishLimits = { name: 'Facebook', text: [FACEBOOK_TEXT], media: FACEBOOK_MEDIA, trims: false, shapedBy: metaPlacementShape('Facebook') };

/**
 * Facebook Pages through the Graph API: a text post `POST /{page-id}/feed`; one photo
 * `POST /{page-id}/photos` (the bytes as `source`, with its caption); several photos as
 * unpublished photos (`published=false`) attached to one `POST /{page-id}/feed`
 * (`attached_media`); a video by the resumable upload on `POST /{page-id}/videos`. The call
 * that makes the post is the one irreversible call. Comments and replies
 * `POST /{object-id}/comments`, comments read from `GET /{post-id}/comments?filter=stream`,
 * reconciliation on `GET /{page-id}/feed`. identity.platformAccountId is the page id; the
 * access token a page token.
 */
export class FacebookConnector implements PlatformConnector {
  readonly platform = 'facebook' as const;
  private readonly http: PlatformHttp;
  private readonly graph: string;
  private readonly videoGraph: string;
  private readonly media: MediaFetcher;

  constructor(ctx: ConnectorContext) {
    this.http = graphHttp(ctx.retry);
    this.media = ctx.media;
    this.graph = `${ctx.baseUrl}/${GRAPH_API_VERSION}`;
    // "Videos must be published to graph-video.facebook.com instead of the regular Graph API URL" (Uploading Videos).
    this.videoGraph = `${ctx.baseUrl.replace('//graph.facebook.com', '//graph-video.facebook.com')}/${GRAPH_API_VERSION}`;
  }

  async publish(account: ConnectorAccount, request: PublishRequest): Promise<PublishOutcome> {
    const refusal = limitRefusal(FACEBOOK_LIMITS, request);
    if (refusal) return failed(refusal);
    const { placement = 'feed' } = optionsOf<FacebookOptions>(request);
    if (placement !== 'feed') return this.publishPlacement(account, request, placement);
    if (request.media.length === 0) {
      return toOutcome(async () => {
        const id = await this.create(account, `${this.pageBase(account)}/feed`, { message: request.content });
        return published(id, postUrl(id));
      });
    }
    return toOutcome(() =>
      withCheckedMedia(this.media, request.media, FACEBOOK_MEDIA, 'Facebook', async (files) => {
        if (files.some((file) => file.kind === 'video')) {
          if (files.length > 1) throw new PlatformCallFailed(unsupportedMedia('a Facebook video is a post of its own: it cannot share the post with other media'));
          return this.publishVideo(account, files[0], request.content);
        }
        if (files.length === 1) return this.publishPhoto(account, files[0], request.media[0], request.content);
        return this.publishPhotos(account, files, request.media, request.content);
      }),
    );
  }

  async comment(account: ConnectorAccount, target: CommentTarget, text: string): Promise<PublishOutcome> {
    const refusal = firstRefusal(requireText(text), checkText(text, FACEBOOK_TEXT));
    if (refusal) return failed(refusal);
    const objectId = target.kind === 'post' ? target.platformPostId : target.platformCommentId;
    return toOutcome(async () => {
      const id = await this.create(account, `${this.graph}/${encodeURIComponent(objectId)}/comments`, { message: text });
      return published(id, commentUrl(target.platformPostId, id));
    });
  }

  /**
   * The Page's feed (Page Feed reference, https://developers.facebook.com/docs/graph-api/reference/page/feed):
   * `GET /{page-id}/feed` with `since` at the window's start (Graph's time-based paging, epoch seconds),
   * `created_time`, and `attachments{media_type,target,subattachments}`: an album's subattachments
   * count its photos, a photo or video is one, a link share none. A video's story names the video as
   * its attachment's target, the id publishing gave. Paged by `paging.cursors.after` while
   * `paging.next` is there. Matched by findInWindow.
   */
  async findPublished(account: ConnectorAccount, request: PublishedLookup): Promise<{ platformPostId: string; url: string } | null> {
    const since = String(Math.floor(windowStartMs(request) / 1000));
    return findInWindow(request, 'Facebook', async (cursor) => {
      const query = new URLSearchParams({ fields: 'id,message,created_time,permalink_url,attachments{media_type,target,subattachments}', since, limit: '100', ...(cursor ? { after: cursor } : {}) });
      const response = await this.http.send({ method: 'GET', url: `${this.pageBase(account)}/feed?${query}`, headers: bearer(account) });
      const candidates = arrayAt(response.body, 'data').map((post): PublishedCandidate => {
        const storyId = stringAt(post, 'id');
        if (!storyId) throw malformedAnswer('id on a feed post');
        const attachment = at(post, 'attachments', 'data', 0);
        const mediaType = stringAt(attachment, 'media_type');
        const videoId = mediaType === 'video' ? stringAt(attachment, 'target', 'id') : undefined;
        const subattachments = arrayAt(attachment, 'subattachments', 'data').length;
        const mediaCount = subattachments > 0 ? subattachments : mediaType === 'photo' || mediaType === 'video' ? 1 : 0;
        return {
          platformPostId: videoId ?? storyId,
          url: videoId ? `https://www.facebook.com/${account.identity.platformAccountId}/videos/${videoId}` : (stringAt(post, 'permalink_url') ?? postUrl(storyId)),
          text: stringAt(post, 'message') ?? '',
          createdAtMs: platformTimeMs(at(post, 'created_time')),
          mediaCount,
        };
      });
      return { candidates, next: at(response.body, 'paging', 'next') ? (stringAt(response.body, 'paging', 'cursors', 'after') ?? null) : null };
    });
  }

  /**
   * `POST /{comment-id}` with `is_hidden` (Comment reference, "Updating",
   * https://developers.facebook.com/docs/graph-api/reference/comment/): a Page token with
   * pages_manage_engagement hides a comment on the Page's posts from everyone but its author
   * and the Page's admins. Answers {"success": true}.
   */
  async setCommentHidden(account: ConnectorAccount, comment: CommentRef, hidden: boolean): Promise<void> {
    await graphSucceeded(this.http, { method: 'POST', url: `${this.graph}/${encodeURIComponent(comment.platformCommentId)}`, account, form: { is_hidden: String(hidden) } });
  }

  /** `DELETE /{comment-id}` (Comment reference, "Deleting"): answers {"success": true}. */
  /**
   * Page post insights (https://developers.facebook.com/docs/graph-api/reference/insights#page-posts; read_insights
   * with the Page token): post_impressions, post_total_media_view_unique (reach; post_impressions_unique's
   * replacement, https://developers.facebook.com/docs/platforminsights/page/deprecated-metrics), post_clicks,
   * post_reactions_like_total; and the post's own fields ("Page Post", https://developers.facebook.com/docs/graph-api/reference/pagepost;
   * pages_read_engagement): comments.summary(true) total_count, and shares.count, which Graph leaves out while
   * nobody shared the post (so an answered post without it has 0 shares). No saves or video views: null.
   */
  async fetchItemMetrics(account: ConnectorAccount, platformPostId: string): Promise<ItemMetricsReading> {
    const metric = 'post_impressions,post_total_media_view_unique,post_clicks,post_reactions_like_total';
    const node = `${this.graph}/${encodeURIComponent(platformPostId)}`;
    const [insights, post] = await Promise.all([
      readingMetrics(() => this.http.send({ method: 'GET', url: `${node}/insights?metric=${metric}`, headers: bearer(account) }), ['permission_denied'], ['read_insights', 'pages_read_engagement']),
      readingMetrics(() => this.http.send({ method: 'GET', url: `${node}?fields=${encodeURIComponent('shares,comments.summary(true).limit(0)')}`, headers: bearer(account) }), ['permission_denied'], ['pages_read_engagement']),
    ]);
    const raw: Record<string, unknown> = { ...graphInsightValues(insights.body), shares: at(post.body, 'shares', 'count') ?? 0, comments: at(post.body, 'comments', 'summary', 'total_count') };
    return {
      metrics: itemMetrics({ impressions: raw.post_impressions, reach: raw.post_total_media_view_unique, clicks: raw.post_clicks, likes: raw.post_reactions_like_total, comments: raw.comments, shares: raw.shares }),
      raw,
    };
  }

  /** The Page's followers_count ("Page", https://developers.facebook.com/docs/graph-api/reference/page#Reading; pages_read_engagement). */
  async fetchAccountMetrics(account: ConnectorAccount): Promise<AccountMetricsReading> {
    const response = await readingMetrics(
      () => this.http.send({ method: 'GET', url: `${this.graph}/${encodeURIComponent(account.identity.platformAccountId)}?fields=followers_count`, headers: bearer(account) }),
      ['permission_denied'],
      ['pages_read_engagement'],
    );
    const raw = { followers_count: at(response.body, 'followers_count') };
    return { followers: countOf(raw.followers_count), raw };
  }

  async deleteComment(account: ConnectorAccount, comment: CommentRef): Promise<void> {
    await graphDeleted(this.http, `${this.graph}/${encodeURIComponent(comment.platformCommentId)}`, account);
  }

  async listComments(account: ConnectorAccount, platformPostId: string): Promise<PlatformComment[]> {
    const fields = 'id,message,created_time,from,permalink_url,parent{id}';
    const response = await this.http.send({
      method: 'GET',
      url: `${this.graph}/${encodeURIComponent(platformPostId)}/comments?filter=stream&order=chronological&limit=100&fields=${encodeURIComponent(fields)}`,
      headers: bearer(account),
    });
    return arrayAt(response.body, 'data').map((comment): PlatformComment => {
      const id = stringAt(comment, 'id');
      if (!id) throw malformedAnswer('id on a comment');
      return {
        platformCommentId: id,
        // Comment reference (https://developers.facebook.com/docs/graph-api/reference/comment/): `from` {name, id},
        // the Page itself on the Page's replies.
        author: stringAt(comment, 'from', 'name') ?? 'unknown',
        authorPlatformId: stringAt(comment, 'from', 'id') ?? null,
        text: stringAt(comment, 'message') ?? '',
        createdAt: stringAt(comment, 'created_time') ?? '',
        url: stringAt(comment, 'permalink_url') ?? commentUrl(platformPostId, id),
        parentPlatformPostId: platformPostId,
        inReplyToCommentId: stringAt(comment, 'parent', 'id') ?? null,
      };
    });
  }

  private pageBase(account: ConnectorAccount): string {
    return `${this.graph}/${encodeURIComponent(account.identity.platformAccountId)}`;
  }

  /**
   * One photo post: `POST /{page-id}/photos` with the bytes as `source` (streamed from the
   * spooled file) and the text as `caption`; Graph answers the photo `id` and the `post_id`
   * of the story (Uploading Photos, "Publishing a single-photo story"). The post id is what
   * comments and reconciliation use.
   */
  private async publishPhoto(account: ConnectorAccount, file: MediaFile, ref: MediaRef, content: string): Promise<PublishOutcome> {
    const form = await photoForm(file, ref);
    if (content.trim() !== '') form.append('caption', content);
    const response = await this.http.send({ method: 'POST', url: `${this.pageBase(account)}/photos`, headers: bearer(account), multipart: form, irreversible: true });
    const id = stringAt(response.body, 'post_id');
    if (!id) throw unreadablePublishAnswer('post_id');
    return published(id, postUrl(id));
  }

  /**
   * Several photos: each uploaded unpublished (uploadUnpublishedPhoto, side by side), then one
   * feed post attaching them in order, `attached_media[n]={"media_fbid":"<photo id>"}` (Page
   * Feed reference and Uploading Photos, "Publishing a multi-photo story").
   */
  private async publishPhotos(account: ConnectorAccount, files: MediaFile[], refs: readonly MediaRef[], content: string): Promise<PublishOutcome> {
    const photoIds = await uploadAll(files, (file, index) => this.uploadUnpublishedPhoto(account, file, refs[index]));
    const post: Record<string, string> = content.trim() === '' ? {} : { message: content };
    photoIds.forEach((photoId, index) => (post[`attached_media[${index}]`] = JSON.stringify({ media_fbid: photoId })));
    const id = await this.create(account, `${this.pageBase(account)}/feed`, post);
    return published(id, postUrl(id));
  }

  /**
   * A video by the resumable upload protocol (Uploading Videos, "Resumable Upload"):
   * `upload_phase=start` with the file size answers the video id, an upload session and the
   * first byte range; each `upload_phase=transfer` sends the range Graph asked for as
   * `video_file_chunk` (a slice of the spooled file, read from disk) and answers the next;
   * `upload_phase=finish` with the description publishes it — the irreversible call.
   * Facebook processes the video after that and shows the post when it is ready; there is
   * no attach step to wait for. The video has no alt text field.
   */
  private async publishVideo(account: ConnectorAccount, file: MediaFile, content: string): Promise<PublishOutcome> {
    const pageId = account.identity.platformAccountId;
    const url = `${this.videoGraph}/${encodeURIComponent(pageId)}/videos`;
    const started = await this.http.send({ method: 'POST', url, headers: bearer(account), form: { upload_phase: 'start', file_size: String(file.size) } });
    const videoId = stringAt(started.body, 'video_id');
    const session = stringAt(started.body, 'upload_session_id');
    if (!videoId || !session) throw malformedAnswer('video_id and upload_session_id');
    let range = byteRange(started.body);
    const bytes = await file.blob();
    while (range.start < range.end) {
      const chunk = new FormData();
      chunk.append('upload_phase', 'transfer');
      chunk.append('upload_session_id', session);
      chunk.append('start_offset', String(range.start));
      chunk.append('video_file_chunk', bytes.slice(range.start, range.end), uploadFileName(file));
      range = byteRange((await this.http.send({ method: 'POST', url, headers: bearer(account), multipart: chunk })).body);
    }
    const finish: Record<string, string> = { upload_phase: 'finish', upload_session_id: session };
    if (content.trim() !== '') finish.description = content;
    await this.http.send({ method: 'POST', url, headers: bearer(account), form: finish, irreversible: true });
    return published(videoId, `https://www.facebook.com/${pageId}/videos/${videoId}`);
  }

  /** A photo uploaded with `published=false`: safe to repeat (an unpublished photo shows nowhere); answers its id. */
  private async uploadUnpublishedPhoto(account: ConnectorAccount, file: MediaFile, ref: MediaRef): Promise<string> {
    const form = await photoForm(file, ref);
    form.append('published', 'false');
    const response = await this.http.send({ method: 'POST', url: `${this.pageBase(account)}/photos`, headers: bearer(account), multipart: form });
    const photoId = stringAt(response.body, 'id');
    if (!photoId) throw malformedAnswer('photo id');
    return photoId;
  }

  /** A reel or a story: one media item under that placement's rules (FACEBOOK_REEL_MEDIA, FACEBOOK_STORY_MEDIA). */
  private publishPlacement(account: ConnectorAccount, request: PublishRequest, placement: Exclude<MetaPlacement, 'feed'>): Promise<PublishOutcome> {
    const rules = placement === 'reel' ? FACEBOOK_REEL_MEDIA : FACEBOOK_STORY_MEDIA;
    return toOutcome(() =>
      withCheckedMedia(this.media, request.media, rules, 'Facebook', async ([file]) => {
        if (placement === 'reel') return this.publishReel(account, file, request.content);
        return file.kind === 'video' ? this.publishVideoStory(account, file) : this.publishPhotoStory(account, file, request.media[0]);
      }),
    );
  }

  /**
   * A reel ("Reels Publishing API", https://developers.facebook.com/docs/video-api/guides/reels-publishing):
   * the video uploaded to a `/{page-id}/video_reels` session (uploadToSession), then
   * `upload_phase=finish` with `video_state=PUBLISHED` and the text as `description` — the
   * irreversible call, answering {"success": true}.
   */
  private async publishReel(account: ConnectorAccount, file: MediaFile, content: string): Promise<PublishOutcome> {
    const url = `${this.pageBase(account)}/video_reels`;
    const videoId = await this.uploadToSession(account, url, file);
    const finish: Record<string, string> = { upload_phase: 'finish', video_id: videoId, video_state: 'PUBLISHED' };
    if (content.trim() !== '') finish.description = content;
    await this.finishSession(account, url, finish);
    return published(videoId, `https://www.facebook.com/reel/${videoId}`);
  }

  /**
   * A video story ("Page Stories API", Video stories, https://developers.facebook.com/docs/page-stories-api):
   * the video uploaded to a `/{page-id}/video_stories` session, then `upload_phase=finish` — the
   * irreversible call, answering {"success": true, "post_id"}. A story shows no text: none is sent.
   */
  private async publishVideoStory(account: ConnectorAccount, file: MediaFile): Promise<PublishOutcome> {
    const url = `${this.pageBase(account)}/video_stories`;
    const videoId = await this.uploadToSession(account, url, file);
    const postId = stringAt(await this.finishSession(account, url, { upload_phase: 'finish', video_id: videoId }), 'post_id');
    if (!postId) throw unreadablePublishAnswer('post_id');
    return published(postId, storyUrl(account));
  }

  /**
   * A photo story ("Page Stories API", Photo stories): the photo uploaded unpublished, then
   * `POST /{page-id}/photo_stories` with its `photo_id` — the irreversible call, answering
   * {"success": true, "post_id"}. A story shows no text: none is sent.
   */
  private async publishPhotoStory(account: ConnectorAccount, file: MediaFile, ref: MediaRef): Promise<PublishOutcome> {
    const photoId = await this.uploadUnpublishedPhoto(account, file, ref);
    const postId = stringAt(await this.finishSession(account, `${this.pageBase(account)}/photo_stories`, { photo_id: photoId }), 'post_id');
    if (!postId) throw unreadablePublishAnswer('post_id');
    return published(postId, storyUrl(account));
  }

  /**
   * The upload both reels and video stories use (Reels Publishing API, steps 1 and 2):
   * `upload_phase=start` on the edge answers `video_id` and `upload_url` (on rupload.facebook.com);
   * the bytes go in one POST to that url with `Authorization: OAuth <page token>`, `offset: 0` and
   * `file_size` headers, answering {"success": true}. Safe to repeat: nothing shows until finish.
   */
  private async uploadToSession(account: ConnectorAccount, edgeUrl: string, file: MediaFile): Promise<string> {
    const started = await this.http.send({ method: 'POST', url: edgeUrl, headers: bearer(account), form: { upload_phase: 'start' } });
    const videoId = stringAt(started.body, 'video_id');
    const uploadUrl = stringAt(started.body, 'upload_url');
    if (!videoId || !uploadUrl) throw malformedAnswer('video_id and upload_url');
    const uploaded = await this.http.send({
      method: 'POST',
      url: uploadUrl,
      headers: { authorization: `OAuth ${account.credentials.accessToken}`, offset: '0', file_size: String(file.size) },
      raw: { body: await file.blob(), contentType: 'application/octet-stream' },
    });
    if (at(uploaded.body, 'success') !== true) throw malformedAnswer('success: true of the upload');
    return videoId;
  }

  /** The call that publishes a reel or a story: irreversible, answering {"success": true, ...}. */
  private async finishSession(account: ConnectorAccount, url: string, form: Record<string, string>): Promise<unknown> {
    const response = await this.http.send({ method: 'POST', url, headers: bearer(account), form, irreversible: true });
    if (at(response.body, 'success') !== true) throw unreadablePublishAnswer('success');
    return response.body;
  }

  private async create(account: ConnectorAccount, url: string, form: Record<string, string>): Promise<string> {
    const response = await this.http.send({ method: 'POST', url, headers: bearer(account), form, irreversible: true });
    const id = stringAt(response.body, 'id');
    if (!id) throw unreadablePublishAnswer('id');
    return id;
  }
}

/** A photo upload's form: the bytes as `source` (a file-backed Blob, streamed) and the alt text as `alt_text_custom`. */
async function photoForm(file: MediaFile, ref: MediaRef): Promise<FormData> {
  const form = new FormData();
  form.append('source', await file.blob(), uploadFileName(file));
  if (ref.altText) form.append('alt_text_custom', ref.altText);
  return form;
}

/** The byte range Graph asks for next ({start_offset, end_offset} as numeric strings); equal offsets mean every byte arrived. */
function byteRange(body: unknown): { start: number; end: number } {
  const start = Number(stringAt(body, 'start_offset'));
  const end = Number(stringAt(body, 'end_offset'));
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end < start) throw malformedAnswer('start_offset and end_offset');
  return { start, end };
}

/** A story has no permalink of its own in the answer: the Page's stories. */
function storyUrl(account: ConnectorAccount): string {
  return `https://www.facebook.com/stories/${account.identity.platformAccountId}`;
}

/** Page post ids are "{page-id}_{post-id}". */
function postUrl(id: string): string {
  const [pageId, postId] = id.split('_');
  return postId ? `https://www.facebook.com/${pageId}/posts/${postId}` : `https://www.facebook.com/${id}`;
}

function commentUrl(postId: string, commentId: string): string {
  return `${postUrl(postId)}?comment_id=${encodeURIComponent(commentId)}`;
}

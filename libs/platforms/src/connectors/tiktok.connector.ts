import type { MediaFile } from '@app/media';
import type { AccountMetricsReading, ItemMetricsReading } from '@app/contracts';
import { countOf, itemMetrics, metricsItemNotFound, rawObject, readingMetrics } from './metrics-reading';
import { INSUFFICIENT_PLATFORM_SCOPE } from '@app/contracts';
import type { ConnectorAccount, PlatformComment, PlatformConnector, PlatformError, PublishedLookup, PublishOutcome, PublishRequest } from '../connector';
import { bareHandle } from '../connector';
import { checkText, TextRule } from '../content/content-rules';
import { titleFrom } from '../content/title';
import { GIB, MIB, PlatformMediaRules, withCheckedMedia } from '../content/media-rules';
import { utf16Length } from '../content/text-length';
import { codeForStatus, isTransientStatus, PlatformCallFailed, PlatformHttp, PlatformResponse } from '../http/platform-http';
import { failed, malformedAnswer, published, toOutcome, unreadablePublishAnswer } from '../outcome';
import { arrayAt, at, bearer, ConnectorContext, stringAt } from './connector-context';
import { findInWindow, platformTimeMs, PublishedCandidate } from './published-lookup';
import { pollUntilDone } from './processing-wait';
import { commentActionNotSupported, commentsNotSupported } from './unsupported';
import { optionsOf, TikTokOptions } from '../options/platform-options';
import { limitRefusal, PublishLimits } from '../content/publish-limit-rules';

/** A video's title (its caption) takes 2,200 UTF-16 units; a photo post's description 4,000, its title 90. */
export const TIKTOK_VIDEO_TITLE: TextRule = { field: 'title', max: 2_200, measure: utf16Length, unit: 'UTF-16 units' };
export const TIKTOK_PHOTO_DESCRIPTION: TextRule = { field: 'description', max: 4_000, measure: utf16Length, unit: 'UTF-16 units' };
export const TIKTOK_PHOTO_TITLE_MAX = 90;

/**
 * "Video restrictions" and "Image restrictions" of the Media Transfer Guide
 * (https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide): videos MP4,
 * WebM or MOV up to 4 GB, the longest a developer may send being 10 minutes; photos JPEG or
 * WebP up to 20 MB each, up to 35 in a photo post ("Content Posting API - Direct Post",
 * https://developers.tiktok.com/doc/content-posting-api-reference-direct-post, photo_images).
 * A post is one video, or photos only. TikTok has no alt text field: alt text is dropped.
 * Not checkable here (the rules have no pixel bounds): a video's 360-4096 px picture size
 * and a photo's 1080p maximum, which TikTok's processing refuses (FAILED, picture_size_check_failed).
 */
export const TIKTOK_MEDIA: PlatformMediaRules = {
  maxItems: 35,
  image: { types: ['image/jpeg', 'image/webp'], maxBytes: 20 * MIB },
  video: { types: ['video/mp4', 'video/quicktime', 'video/webm'], maxBytes: 4 * GIB, maxSeconds: 600 },
  animatedAlone: true,
};

/** The chunk size of a FILE_UPLOAD: within the guide's 5-64 MB per chunk, small enough to cross within one request timeout. */
export const TIKTOK_CHUNK_BYTES = 8 * MIB;

/** Videos per page when looking one up: the most the video list gives (max_count, at most 20). */
const TIKTOK_VIDEO_LIST_PAGE = 20;

/** How long a post may stay in TikTok's processing before the connector stops watching it. */
export const TIKTOK_MAX_PROCESSING_WAIT_MS = 5 * 60_000;


/**
 * What TikTok refuses before any request (publish-limit-rules.ts): the longest text any TikTok post takes (a photo
 * post's description); a video's shorter title is checked once the bytes tell it is one.
 */
export const TIKTOK_LIMITS: PublishLimits = { name: 'TikTok', text: [TIKTOK_PHOTO_DESCRIPTION], media: TIKTOK_MEDIA, mediaOnly: 'videos and photos', trims: false };

/**
 * TikTok Content Posting API (Direct Post).
 * - Video: `POST /v2/post/publish/video/init/` with source FILE_UPLOAD (the irreversible call:
 *   it creates the post, whose publish_id every later step belongs to), then each chunk `PUT`
 *   to the answered upload_url with its Content-Range (Media Transfer Guide: chunks in order,
 *   206 until the last, 201 for it). A chunk PUT is safe to repeat: it re-sends the same bytes
 *   to the same post.
 * - Photos: `POST /v2/post/publish/content/init/` (media_type PHOTO, PULL_FROM_URL): TikTok pulls
 *   the photos itself, after the connector fetched and checked them under TIKTOK_MEDIA.
 * Then `POST /v2/post/publish/status/fetch/` is polled with backoff ("Get Post Status",
 * https://developers.tiktok.com/doc/content-posting-api-reference-get-video-status) until
 * PUBLISH_COMPLETE (the public id, once moderation gave it) or FAILED (media_processing_failed).
 * Posting is asynchronous: while TikTok is still working after the bounded wait, or when the
 * status cannot be read, the post is accepted and the platformPostId is the publish_id, the url
 * the profile. Media is required. The public API cannot post or read comments: comment() fails
 * with comments_not_supported and listComments() answers [], both without a request. Reconciliation:
 * the user's public videos (Display API video list, see findPublished).
 */
export class TikTokConnector implements PlatformConnector {
  readonly platform = 'tiktok' as const;
  private readonly http: PlatformHttp;

  constructor(private readonly ctx: ConnectorContext) {
    this.http = new PlatformHttp(mapTikTokError, ctx.retry);
  }

  async publish(account: ConnectorAccount, request: PublishRequest): Promise<PublishOutcome> {
    const refusal = limitRefusal(TIKTOK_LIMITS, request);
    if (refusal) return failed(refusal);
    return toOutcome(() =>
      withCheckedMedia(this.ctx.media, request.media, TIKTOK_MEDIA, 'TikTok', async (files) => {
        const video = files.find((file) => file.kind === 'video');
        const settings = await this.postSettings(account, request, video !== undefined);
        if (!video) return this.publishPhotos(account, request, settings);
        const titleRefusal = checkText(request.content, TIKTOK_VIDEO_TITLE);
        if (titleRefusal) throw new PlatformCallFailed(titleRefusal);
        return this.publishVideo(account, request.content, video, settings);
      }),
    );
  }

  async comment(): Promise<PublishOutcome> {
    return failed(commentsNotSupported('TikTok'));
  }

  /**
   * The user's public videos ("Query User Video List", Display API, https://developers.tiktok.com/doc/tiktok-api-v2-video-list):
   * `POST /v2/video/list/?fields=id,create_time,title,video_description,share_url` with {max_count (at most 20),
   * cursor}, newest first, `has_more` and the next `cursor` in data; `create_time` in epoch seconds. Needs
   * the video.list scope; refused, the lookup fails and the post ends as outcome_unknown.
   * Why not "Get Post Status" by publish_id: the publish_id comes back only in the answer to the
   * init, the irreversible call; when that answer was lost there is no id to ask about, and when the
   * process died after it nothing kept it (the connector polls the status itself while it holds it).
   * A post TikTok still processes is not public yet, so it is not found: it ends as outcome_unknown.
   * Matched by findInWindow on the caption (video_description, else title); the listing gives no media count.
   */
  async findPublished(account: ConnectorAccount, request: PublishedLookup): Promise<{ platformPostId: string; url: string } | null> {
    const profile = `https://www.tiktok.com/@${bareHandle(account)}`;
    return findInWindow(request, 'TikTok', async (cursor) => {
      const response = await this.http.send({
        method: 'POST',
        url: `${this.ctx.baseUrl}/v2/video/list/?fields=id,create_time,title,video_description,share_url`,
        headers: bearer(account),
        json: { max_count: TIKTOK_VIDEO_LIST_PAGE, ...(cursor ? { cursor: Number(cursor) } : {}) },
      });
      const candidates = arrayAt(response.body, 'data', 'videos').map((video): PublishedCandidate => {
        const id = stringAt(video, 'id');
        if (!id) throw malformedAnswer('id on a video');
        return {
          platformPostId: id,
          url: `${profile}/video/${id}`,
          text: stringAt(video, 'video_description') || stringAt(video, 'title') || '',
          createdAtMs: platformTimeMs(at(video, 'create_time'), 'seconds'),
          mediaCount: null,
        };
      });
      const next = at(response.body, 'data', 'has_more') === true ? stringAt(response.body, 'data', 'cursor') : undefined;
      return { candidates, next: next ?? null };
    });
  }

  async setCommentHidden(): Promise<void> {
    throw commentActionNotSupported('TikTok', 'hiding comments');
  }

  /**
   * Display API "Query Videos" (https://developers.tiktok.com/doc/tiktok-api-v2-video-query; video.list) with the
   * Video Object's view_count, like_count, comment_count, share_count
   * (https://developers.tiktok.com/doc/tiktok-api-v2-video-object). TikTok gives no impressions, reach, saves or
   * clicks here: null. A video TikTok has not made public yet (or an id that is still a publish_id) is not answered.
   */
  async fetchItemMetrics(account: ConnectorAccount, publishedId: string): Promise<ItemMetricsReading> {
    const platformPostId = await this.videoIdOf(account, publishedId);
    const response = await readingMetrics(
      () =>
        this.http.send({
          method: 'POST',
          url: `${this.ctx.baseUrl}/v2/video/query/?fields=id,view_count,like_count,comment_count,share_count`,
          headers: bearer(account),
          json: { filters: { video_ids: [platformPostId] } },
        }),
      ['scope_not_authorized'],
      ['video.list'],
    );
    const video = arrayAt(response.body, 'data', 'videos').find((candidate) => stringAt(candidate, 'id') === platformPostId);
    if (video === undefined) throw metricsItemNotFound(platformPostId);
    const fields = rawObject(video, 'video');
    const raw = { view_count: fields.view_count, like_count: fields.like_count, comment_count: fields.comment_count, share_count: fields.share_count };
    return { metrics: itemMetrics({ videoViews: raw.view_count, likes: raw.like_count, comments: raw.comment_count, shares: raw.share_count }), raw };
  }

  /**
   * The video id behind what publishing answered: the id itself, or, when the publish answered before TikTok made
   * the video public (a publish_id, "v_pub_..."), the id its status now names ("Get Post Status",
   * https://developers.tiktok.com/doc/content-posting-api-reference-get-video-status: publicaly_available_post_id).
   * Still processing: retryable `item_not_public_yet`.
   */
  private async videoIdOf(account: ConnectorAccount, publishedId: string): Promise<string> {
    if (!publishedId.startsWith('v_pub')) return publishedId;
    const status = await this.postStatus(account, publishedId);
    if (status?.state === 'complete' && status.postId) return status.postId;
    if (status?.state === 'failed') throw metricsItemNotFound(publishedId);
    throw new PlatformCallFailed({ code: 'item_not_public_yet', message: `TikTok has not made ${publishedId} public yet`, retryable: true });
  }

  /**
   * "Get User Info" with fields=follower_count (https://developers.tiktok.com/doc/tiktok-api-v2-get-user-info).
   * The field needs user.info.stats, and TikTok leaves out the fields of scopes the user did not grant rather than
   * refuse: an answer without it is the missing scope.
   */
  async fetchAccountMetrics(account: ConnectorAccount): Promise<AccountMetricsReading> {
    const response = await readingMetrics(
      () => this.http.send({ method: 'GET', url: `${this.ctx.baseUrl}/v2/user/info/?fields=follower_count`, headers: bearer(account) }),
      ['scope_not_authorized'],
      ['user.info.basic', 'user.info.stats'],
    );
    const followers = at(response.body, 'data', 'user', 'follower_count');
    if (followers === undefined) {
      throw new PlatformCallFailed({ code: INSUFFICIENT_PLATFORM_SCOPE, message: 'TikTok left out follower_count: the token lacks user.info.stats; sign in again to grant it', retryable: false });
    }
    return { followers: countOf(followers), raw: { follower_count: followers } };
  }

  async deleteComment(): Promise<void> {
    throw commentActionNotSupported('TikTok', 'deleting comments');
  }

  async listComments(): Promise<PlatformComment[]> {
    return [];
  }

  /**
   * The post_info settings from the post's options (Direct Post, https://developers.tiktok.com/doc/content-posting-api-reference-direct-post):
   * privacy_level (absent: PUBLIC_TO_EVERYONE), disable_comment, and for a video disable_duet and disable_stitch.
   * A privacy level the post names is first checked against the ones the creator may use, as Query Creator Info
   * reports them (`privacy_level_options`, https://developers.tiktok.com/doc/content-posting-api-reference-query-creator-info):
   * one it may not is refused before the post is sent (privacy_level_not_allowed).
   */
  private async postSettings(account: ConnectorAccount, request: PublishRequest, isVideo: boolean): Promise<Record<string, string | boolean>> {
    const { privacy_level, disable_comment, disable_duet, disable_stitch } = optionsOf<TikTokOptions>(request);
    if (privacy_level) {
      const info = await this.http.send({ method: 'POST', url: `${this.ctx.baseUrl}/v2/post/publish/creator_info/query/`, headers: bearer(account) });
      const allowed = arrayAt(info.body, 'data', 'privacy_level_options').filter((option): option is string => typeof option === 'string');
      if (!allowed.includes(privacy_level)) {
        throw new PlatformCallFailed({ code: 'privacy_level_not_allowed', message: `this TikTok creator may post with ${allowed.join(', ') || 'no privacy level'}, not ${privacy_level}`, retryable: false });
      }
    }
    const switches = isVideo ? { disable_comment, disable_duet, disable_stitch } : { disable_comment };
    return { privacy_level: privacy_level ?? 'PUBLIC_TO_EVERYONE', ...Object.fromEntries(Object.entries(switches).filter(([, on]) => on !== undefined)) };
  }

  private async publishVideo(account: ConnectorAccount, content: string, video: MediaFile, settings: Record<string, string | boolean>): Promise<PublishOutcome> {
    const { chunkSize, chunkCount } = tiktokChunks(video.size);
    // Direct Post "Initialize the posting request" with source_info for FILE_UPLOAD.
    const init = await this.http.send({
      method: 'POST',
      url: `${this.ctx.baseUrl}/v2/post/publish/video/init/`,
      headers: bearer(account),
      json: {
        post_info: { title: content, ...settings },
        source_info: { source: 'FILE_UPLOAD', video_size: video.size, chunk_size: chunkSize, total_chunk_count: chunkCount },
      },
      irreversible: true,
    });
    const publishId = stringAt(init.body, 'data', 'publish_id');
    if (!publishId) throw unreadablePublishAnswer('data.publish_id');
    // Without the url the bytes never arrive, so TikTok never publishes this post: a definite failure.
    const uploadUrl = stringAt(init.body, 'data', 'upload_url');
    if (!uploadUrl) throw malformedAnswer('data.upload_url');
    const file = await video.blob();
    for (let index = 0; index < chunkCount; index++) {
      const start = index * chunkSize;
      const end = index === chunkCount - 1 ? video.size : start + chunkSize;
      // Media Transfer Guide, "Media transfer HTTP schema": the upload_url carries its own token, no Authorization.
      await this.http.send({
        method: 'PUT',
        url: uploadUrl,
        headers: { 'content-range': `bytes ${start}-${end - 1}/${video.size}` },
        raw: { body: file.slice(start, end, video.contentType), contentType: video.contentType },
      });
    }
    return this.outcomeOf(account, publishId);
  }

  private async publishPhotos(account: ConnectorAccount, request: PublishRequest, settings: Record<string, string | boolean>): Promise<PublishOutcome> {
    // Direct Post, "Post photos": content/init with media_type PHOTO; TikTok pulls photo_images by url.
    const init = await this.http.send({
      method: 'POST',
      url: `${this.ctx.baseUrl}/v2/post/publish/content/init/`,
      headers: bearer(account),
      json: {
        post_info: { title: titleFrom(request.content, TIKTOK_PHOTO_TITLE_MAX), description: request.content, ...settings },
        source_info: { source: 'PULL_FROM_URL', photo_cover_index: 0, photo_images: request.media.map((item) => item.url) },
        post_mode: 'DIRECT_POST',
        media_type: 'PHOTO',
      },
      irreversible: true,
    });
    const publishId = stringAt(init.body, 'data', 'publish_id');
    if (!publishId) throw unreadablePublishAnswer('data.publish_id');
    return this.outcomeOf(account, publishId);
  }

  /** What became of an accepted post: published (its public id once TikTok gives one), or failed in processing. */
  private async outcomeOf(account: ConnectorAccount, publishId: string): Promise<PublishOutcome> {
    const profile = `https://www.tiktok.com/@${bareHandle(account)}`;
    let status: PostStatus | undefined;
    try {
      status = await pollUntilDone(this.ctx.retry, TIKTOK_MAX_PROCESSING_WAIT_MS, () => this.postStatus(account, publishId));
    } catch (error) {
      // The status read failed, not the post: TikTok accepted it and carries on without us.
      if (error instanceof PlatformCallFailed) return published(publishId, profile);
      throw error;
    }
    if (status?.state === 'failed') {
      return failed({ code: 'media_processing_failed', message: `TikTok could not publish the post (${status.reason})`, retryable: false });
    }
    return status?.postId ? published(status.postId, `${profile}/video/${status.postId}`) : published(publishId, profile);
  }

  /** One status read: undefined while TikTok is still processing (PROCESSING_UPLOAD / PROCESSING_DOWNLOAD). */
  private async postStatus(account: ConnectorAccount, publishId: string): Promise<PostStatus | undefined> {
    const response = await this.http.send({
      method: 'POST',
      url: `${this.ctx.baseUrl}/v2/post/publish/status/fetch/`,
      headers: bearer(account),
      json: { publish_id: publishId },
    });
    const state = stringAt(response.body, 'data', 'status');
    if (state === 'FAILED') return { state: 'failed', reason: stringAt(response.body, 'data', 'fail_reason') ?? 'no reason given' };
    if (state === 'PUBLISH_COMPLETE') {
      // TikTok's own spelling; the id arrives only after moderation, possibly later than this.
      const [postId] = arrayAt(response.body, 'data', 'publicaly_available_post_id');
      return { state: 'complete', postId: postId === undefined || postId === null ? null : String(postId) };
    }
    return undefined;
  }
}

type PostStatus = { state: 'complete'; postId: string | null } | { state: 'failed'; reason: string };

/**
 * The Media Transfer Guide's chunk rules: a video up to one chunk goes whole (chunk_size = its
 * size; below 5 MB it must); a larger one in chunks of TIKTOK_CHUNK_BYTES, total_chunk_count
 * being the size divided by the chunk size rounded down, the last chunk taking the trailing
 * bytes (under 2 chunks, so within 128 MB; at most 4 GB / 8 MiB = 512 chunks, within 1,000).
 */
export function tiktokChunks(videoSize: number): { chunkSize: number; chunkCount: number } {
  if (videoSize <= TIKTOK_CHUNK_BYTES) return { chunkSize: videoSize, chunkCount: 1 };
  return { chunkSize: TIKTOK_CHUNK_BYTES, chunkCount: Math.floor(videoSize / TIKTOK_CHUNK_BYTES) };
}

const TRANSIENT_TIKTOK_CODES = new Set(['rate_limit_exceeded', 'internal_error']);

/**
 * TikTok errors: {"data": {}, "error": {"code": "access_token_invalid", "message": "...", "log_id": "..."}}.
 * A refused token, expired or revoked alike, is HTTP 401 `access_token_invalid` ("TikTok API
 * v2 Error Handling", https://developers.tiktok.com/doc/tiktok-api-v2-error-handling): its code
 * is already ours (CREDENTIAL_ERROR_CODES), so it passes through; TikTok has no expired code.
 */
export function mapTikTokError(response: PlatformResponse): PlatformError {
  const code = stringAt(response.body, 'error', 'code');
  return {
    code: response.status === 429 ? 'rate_limited' : code && code !== 'ok' ? code : codeForStatus(response.status),
    message: stringAt(response.body, 'error', 'message') || `TikTok answered HTTP ${response.status}`,
    retryable: isTransientStatus(response.status) || (code !== undefined && TRANSIENT_TIKTOK_CODES.has(code)),
  };
}

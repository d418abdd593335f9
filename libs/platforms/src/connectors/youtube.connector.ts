import type { MediaFile } from '@app/media';
import type { AccountMetricsReading, ItemMetricsReading } from '@app/contracts';
import { countOf, itemMetrics, metricsItemNotFound, rawObject, readingMetrics } from './metrics-reading';
import type { CommentRef, CommentTarget, ConnectorAccount, PlatformComment, PlatformConnector, PlatformError, PublishedLookup, PublishOutcome, PublishRequest } from '../connector';
import { checkText, firstRefusal, requireText, TextRule } from '../content/content-rules';
import { titleFrom } from '../content/title';
import { GIB, PlatformMediaRules, withCheckedMedia } from '../content/media-rules';
import { codePointLength, utf8ByteLength } from '../content/text-length';
import { codeForStatus, isTransientStatus, PlatformCallFailed, PlatformHttp, PlatformResponse } from '../http/platform-http';
import { failed, malformedAnswer, published, toOutcome, unreadablePublishAnswer } from '../outcome';
import { arrayAt, at, bearer, ConnectorContext, snakeCase, stringAt } from './connector-context';
import { findInWindow, platformTimeMs, PublishedCandidate } from './published-lookup';
import { optionsOf, YouTubeOptions } from '../options/platform-options';
import { limitRefusal, PublishLimits } from '../content/publish-limit-rules';

/** A video's description takes 5,000 bytes and its title 100 characters; a comment 10,000 characters. */
export const YOUTUBE_DESCRIPTION: TextRule = { field: 'description', max: 5_000, measure: utf8ByteLength, unit: 'bytes' };
export const YOUTUBE_TITLE_MAX = 100;
export const YOUTUBE_COMMENT: TextRule = { field: 'comment', max: 10_000, measure: codePointLength, unit: 'characters' };

/**
 * A YouTube post is exactly one video: videos.insert takes video/* up to 256 GB
 * (https://developers.google.com/youtube/v3/docs/videos/insert, "Maximum file size"), at most
 * 12 hours long ("Upload videos longer than 15 minutes", https://support.google.com/youtube/answer/71673).
 * A video has no alt text field: alt text is dropped.
 */
export const YOUTUBE_MEDIA: PlatformMediaRules = {
  maxItems: 1,
  video: { types: ['video/mp4', 'video/quicktime', 'video/webm'], maxBytes: 256 * GIB, maxSeconds: 12 * 3600 },
};

/** Resumable upload chunks must be multiples of 256 KiB but the last ("Uploading a file in chunks"); 8 MiB each. */
export const YOUTUBE_CHUNK_BYTES = 32 * 256 * 1024;

/**
 * Google's answer to every chunk but the last, 308 Resume Incomplete with the bytes it holds
 * in `Range`: an answer, not a refusal ("Resumable Uploads", Step 4 and "Uploading a file in chunks").
 */
const RESUME_INCOMPLETE = 308;


/** What YouTube refuses before any request (publish-limit-rules.ts). */
export const YOUTUBE_LIMITS: PublishLimits = { name: 'YouTube', text: [YOUTUBE_DESCRIPTION], media: YOUTUBE_MEDIA, mediaOnly: 'videos', trims: false };

/**
 * YouTube Data API v3. The video is fetched through the media pipeline (spooled to disk,
 * never whole in memory) and sent with the resumable upload protocol ("Resumable Uploads",
 * https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol):
 * `POST /upload/youtube/v3/videos?uploadType=resumable` with the metadata (answers the session
 * url in Location — safe to retry, nothing is public yet), then the bytes in chunks of
 * YOUTUBE_CHUNK_BYTES, each a `PUT` of its Content-Range streamed from the file; Google
 * answers 308 with the Range it holds until the last, which answers the video. A chunk PUT is
 * safe to repeat; the PUT that completes the upload creates the video — the irreversible call.
 * The title is the content's first line. YouTube processes the video after that; the post is
 * made already, so nothing is polled. Comments: `POST /youtube/v3/commentThreads`, replies
 * `POST /youtube/v3/comments`, read from `GET /youtube/v3/commentThreads?part=snippet,replies`.
 * Reconciliation: the channel's uploads playlist (findPublished).
 */
export class YouTubeConnector implements PlatformConnector {
  readonly platform = 'youtube' as const;
  private readonly http: PlatformHttp;

  constructor(private readonly ctx: ConnectorContext) {
    this.http = new PlatformHttp(mapYouTubeError, ctx.retry);
  }

  async publish(account: ConnectorAccount, request: PublishRequest): Promise<PublishOutcome> {
    const refusal = firstRefusal(
      limitRefusal(YOUTUBE_LIMITS, request),
      /[<>]/.test(request.content) ? { code: 'invalid_characters', message: 'YouTube titles and descriptions cannot contain < or >', retryable: false } : null,
    );
    if (refusal) return failed(refusal);
    return toOutcome(() => withCheckedMedia(this.ctx.media, request.media, YOUTUBE_MEDIA, 'YouTube', ([video]) => this.upload(account, request, video)));
  }

  private async upload(account: ConnectorAccount, request: PublishRequest, video: MediaFile): Promise<PublishOutcome> {
    const content = request.content;
    // The `videos` resource's snippet and status (https://developers.google.com/youtube/v3/docs/videos) from the post's
    // options: title (else the content's first line), tags, categoryId, privacyStatus (else public), selfDeclaredMadeForKids.
    const { title, tags, categoryId, privacyStatus = 'public', madeForKids } = optionsOf<YouTubeOptions>(request);
    // Step 1, "Start a resumable session": the metadata, and the bytes to come in X-Upload-Content-*.
    const session = await this.http.send({
      method: 'POST',
      url: `${this.ctx.baseUrl}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`,
      headers: { ...bearer(account), 'X-Upload-Content-Type': video.contentType, 'X-Upload-Content-Length': String(video.size) },
      json: {
        snippet: { title: title ?? (titleFrom(content, YOUTUBE_TITLE_MAX) || 'Untitled'), description: content, ...(tags ? { tags } : {}), ...(categoryId ? { categoryId } : {}) },
        status: { privacyStatus, ...(madeForKids === undefined ? {} : { selfDeclaredMadeForKids: madeForKids }) },
      },
    });
    const uploadUrl = session.headers.get('location');
    if (!uploadUrl) throw malformedAnswer('upload session Location header');
    const file = await video.blob();
    for (let offset = 0; ; ) {
      const end = Math.min(offset + YOUTUBE_CHUNK_BYTES, video.size);
      const answer = await this.putChunk(account, uploadUrl, file, video, offset, end);
      if ('video' in answer) {
        const id = stringAt(answer.video, 'id');
        if (!id) throw unreadablePublishAnswer('video id');
        return published(id, videoUrl(id));
      }
      // Step 4.3 "Resume the upload": go on from what Google holds, which must have grown.
      if (answer.received <= offset) throw new PlatformCallFailed({ code: 'upload_stalled', message: `YouTube holds ${answer.received} of ${video.size} bytes after a chunk from ${offset}`, retryable: true });
      offset = answer.received;
    }
  }

  /**
   * One chunk PUT: the video when it completed the upload, else how many bytes Google holds,
   * from its 308's `Range: bytes=0-{last byte held}` (no Range: none yet). Google may hold less
   * than was sent ("Resumable Uploads", Step 4.3 "Resume the upload"): the caller goes on from there.
   */
  private async putChunk(account: ConnectorAccount, uploadUrl: string, file: Blob, video: MediaFile, start: number, end: number): Promise<{ video: unknown } | { received: number }> {
    const response = await this.http.send({
      method: 'PUT',
      url: uploadUrl,
      headers: { ...bearer(account), 'content-range': `bytes ${start}-${end - 1}/${video.size}` },
      raw: { body: file.slice(start, end, video.contentType), contentType: video.contentType },
      irreversible: end === video.size,
      answers: [RESUME_INCOMPLETE],
    });
    if (response.status !== RESUME_INCOMPLETE) return { video: response.body };
    const last = /^bytes=0-(\d+)$/.exec(response.headers.get('range') ?? '');
    return { received: last ? Number(last[1]) + 1 : 0 };
  }

  async comment(account: ConnectorAccount, target: CommentTarget, text: string): Promise<PublishOutcome> {
    const refusal = firstRefusal(requireText(text), checkText(text, YOUTUBE_COMMENT));
    if (refusal) return failed(refusal);
    const [path, snippet] =
      target.kind === 'post'
        ? ['commentThreads', { videoId: target.platformPostId, topLevelComment: { snippet: { textOriginal: text } } }]
        : ['comments', { parentId: target.platformCommentId, textOriginal: text }];
    return toOutcome(async () => {
      const response = await this.http.send({
        method: 'POST',
        url: `${this.ctx.baseUrl}/youtube/v3/${path}?part=snippet`,
        headers: bearer(account),
        json: { snippet },
        irreversible: true,
      });
      const id = stringAt(response.body, 'id');
      if (!id) throw unreadablePublishAnswer('comment id');
      return published(id, commentUrl(target.platformPostId, id));
    });
  }

  /**
   * The channel's uploads: "Channels: list" (https://developers.google.com/youtube/v3/docs/channels/list)
   * with part=contentDetails and mine=true (the token's channel) gives `relatedPlaylists.uploads`; "PlaylistItems: list"
   * (https://developers.google.com/youtube/v3/docs/playlistItems/list) reads it newest first, 50 a page,
   * `pageToken` from nextPageToken. Each item names its video (`contentDetails.videoId`), when it was
   * published (`contentDetails.videoPublishedAt`, else `snippet.publishedAt`) and its description, which
   * is the post's content. A video is one media item. Matched by findInWindow.
   */
  async findPublished(account: ConnectorAccount, request: PublishedLookup): Promise<{ platformPostId: string; url: string } | null> {
    const channel = await this.http.send({
      method: 'GET',
      url: `${this.ctx.baseUrl}/youtube/v3/channels?${new URLSearchParams({ part: 'contentDetails', mine: 'true' })}`,
      headers: bearer(account),
    });
    const uploads = stringAt(channel.body, 'items', 0, 'contentDetails', 'relatedPlaylists', 'uploads');
    if (!uploads) throw malformedAnswer(`uploads playlist of channel ${account.identity.platformAccountId}`);
    return findInWindow(request, 'YouTube', async (cursor) => {
      const query = new URLSearchParams({ part: 'snippet,contentDetails', playlistId: uploads, maxResults: '50', ...(cursor ? { pageToken: cursor } : {}) });
      const response = await this.http.send({ method: 'GET', url: `${this.ctx.baseUrl}/youtube/v3/playlistItems?${query}`, headers: bearer(account) });
      const candidates = arrayAt(response.body, 'items').map((item): PublishedCandidate => {
        const videoId = stringAt(item, 'contentDetails', 'videoId') ?? stringAt(item, 'snippet', 'resourceId', 'videoId');
        if (!videoId) throw malformedAnswer('videoId on a playlist item');
        const publishedAt = at(item, 'contentDetails', 'videoPublishedAt') ?? at(item, 'snippet', 'publishedAt');
        return { platformPostId: videoId, url: videoUrl(videoId), text: stringAt(item, 'snippet', 'description') ?? '', createdAtMs: platformTimeMs(publishedAt), mediaCount: 1 };
      });
      return { candidates, next: stringAt(response.body, 'nextPageToken') ?? null };
    });
  }

  /**
   * `POST /youtube/v3/comments/setModerationStatus?id=&moderationStatus=` ("Comments: setModerationStatus",
   * https://developers.google.com/youtube/v3/docs/comments/setModerationStatus; youtube.force-ssl, by the
   * channel's owner): hiding holds the comment for review (`heldForReview`), which `published` undoes.
   * `rejected` is not used: a rejected comment "can't" be published again. Answers 204.
   */
  async setCommentHidden(account: ConnectorAccount, comment: CommentRef, hidden: boolean): Promise<void> {
    const query = new URLSearchParams({ id: comment.platformCommentId, moderationStatus: hidden ? 'heldForReview' : 'published' });
    await this.http.send({ method: 'POST', url: `${this.ctx.baseUrl}/youtube/v3/comments/setModerationStatus?${query}`, headers: bearer(account) });
  }

  /**
   * `DELETE /youtube/v3/comments?id=` ("Comments: delete", https://developers.google.com/youtube/v3/docs/comments/delete;
   * youtube.force-ssl): only the comment's author may. Answers 204; 404 commentNotFound once it is gone,
   * which is taken as deleted (see PlatformConnector.deleteComment).
   */
  /**
   * "Videos: list" with part=statistics (https://developers.google.com/youtube/v3/docs/videos/list; the fields,
   * https://developers.google.com/youtube/v3/docs/videos#statistics): viewCount (videoViews), likeCount, commentCount,
   * decimal strings; favoriteCount (deprecated, always 0) kept raw. Impressions, reach and shares are YouTube
   * Analytics API reports, not these statistics: null. A video YouTube no longer finds is left out of `items`.
   */
  async fetchItemMetrics(account: ConnectorAccount, platformPostId: string): Promise<ItemMetricsReading> {
    const query = new URLSearchParams({ part: 'statistics', id: platformPostId });
    const response = await readingMetrics(
      () => this.http.send({ method: 'GET', url: `${this.ctx.baseUrl}/youtube/v3/videos?${query}`, headers: bearer(account) }),
      ['insufficient_permissions'],
      ['https://www.googleapis.com/auth/youtube.readonly'],
    );
    const video = arrayAt(response.body, 'items').find((candidate) => stringAt(candidate, 'id') === platformPostId);
    if (video === undefined) throw metricsItemNotFound(platformPostId);
    const raw = rawObject(at(video, 'statistics'), 'statistics on the video');
    return { metrics: itemMetrics({ videoViews: raw.viewCount, likes: raw.likeCount, comments: raw.commentCount }), raw };
  }

  /**
   * "Channels: list" with part=statistics&mine=true (https://developers.google.com/youtube/v3/docs/channels#statistics):
   * subscriberCount; null when the channel hides it (hiddenSubscriberCount).
   */
  async fetchAccountMetrics(account: ConnectorAccount): Promise<AccountMetricsReading> {
    const response = await readingMetrics(
      () => this.http.send({ method: 'GET', url: `${this.ctx.baseUrl}/youtube/v3/channels?part=statistics&mine=true`, headers: bearer(account) }),
      ['insufficient_permissions'],
      ['https://www.googleapis.com/auth/youtube.readonly'],
    );
    const raw = rawObject(at(response.body, 'items', 0, 'statistics'), 'statistics on the channel');
    return { followers: raw.hiddenSubscriberCount === true ? null : countOf(raw.subscriberCount), raw };
  }

  async deleteComment(account: ConnectorAccount, comment: CommentRef): Promise<void> {
    const query = new URLSearchParams({ id: comment.platformCommentId });
    await this.http.send({ method: 'DELETE', url: `${this.ctx.baseUrl}/youtube/v3/comments?${query}`, headers: bearer(account), answers: [404] });
  }

  async listComments(account: ConnectorAccount, platformPostId: string): Promise<PlatformComment[]> {
    const query = new URLSearchParams({ part: 'snippet,replies', videoId: platformPostId, maxResults: '100', textFormat: 'plainText' });
    const response = await this.http.send({ method: 'GET', url: `${this.ctx.baseUrl}/youtube/v3/commentThreads?${query}`, headers: bearer(account) });
    const toComment = (comment: unknown, parentId: string | null): PlatformComment => {
      const id = stringAt(comment, 'id');
      if (!id) throw malformedAnswer('comment id');
      return {
        platformCommentId: id,
        // "Comments" (https://developers.google.com/youtube/v3/docs/comments): the author's channel id in authorChannelId.value.
        author: stringAt(comment, 'snippet', 'authorDisplayName') ?? 'unknown',
        authorPlatformId: stringAt(comment, 'snippet', 'authorChannelId', 'value') ?? null,
        text: stringAt(comment, 'snippet', 'textOriginal') ?? stringAt(comment, 'snippet', 'textDisplay') ?? '',
        createdAt: stringAt(comment, 'snippet', 'publishedAt') ?? '',
        url: commentUrl(platformPostId, id),
        parentPlatformPostId: platformPostId,
        inReplyToCommentId: parentId,
      };
    };
    return arrayAt(response.body, 'items')
      .flatMap((thread) => {
        const top = toComment(at(thread, 'snippet', 'topLevelComment'), null);
        return [top, ...arrayAt(thread, 'replies', 'comments').map((reply) => toComment(reply, top.platformCommentId))];
      })
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }
}

function videoUrl(videoId: string): string {
  return `https://www.youtube.com/watch?v=${videoId}`;
}

function commentUrl(videoId: string, commentId: string): string {
  return `https://www.youtube.com/watch?v=${videoId}&lc=${commentId}`;
}

const TRANSIENT_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded', 'backendError']);

/**
 * Google API errors: {"error": {"code": 403, "message": "...", "errors": [{"reason": "quotaExceeded", "domain": "youtube.quota"}]}}.
 * Every 401 is a refused token ("Invalid Credentials", reason authError); an expired one
 * is told apart only by the google.rpc.ErrorInfo in `details` with reason ACCESS_TOKEN_EXPIRED
 * (googleapis/googleapis google/api/error_reason.proto).
 */
export function mapYouTubeError(response: PlatformResponse): PlatformError {
  const reason = stringAt(response.body, 'error', 'errors', 0, 'reason');
  const expired = arrayAt(response.body, 'error', 'details').some((detail) => stringAt(detail, 'reason') === 'ACCESS_TOKEN_EXPIRED');
  const tokenRefused = response.status === 401 ? (expired ? 'access_token_expired' : 'access_token_invalid') : undefined;
  // Throttling, whether a 429 or the 403 rateLimitExceeded / userRateLimitExceeded the errors page lists
  // (https://developers.google.com/youtube/v3/docs/errors), is the one code every connector gives it.
  const throttled = response.status === 429 || reason === 'rateLimitExceeded' || reason === 'userRateLimitExceeded';
  return {
    code: tokenRefused ?? (throttled ? 'rate_limited' : reason ? snakeCase(reason) : codeForStatus(response.status)),
    message: stringAt(response.body, 'error', 'message') ?? `YouTube answered HTTP ${response.status}`,
    retryable: reason === 'quotaExceeded' ? false : isTransientStatus(response.status) || (reason !== undefined && TRANSIENT_REASONS.has(reason)),
  };
}

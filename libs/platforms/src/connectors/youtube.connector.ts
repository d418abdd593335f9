import type { CommentTarget, ConnectorAccount, PlatformComment, PlatformConnector, PlatformError, PublishOutcome, PublishRequest } from '../connector';
import { checkText, firstRefusal, requireMedia, requireText, TextRule, unsupportedMedia } from '../content/content-rules';
import { isVideoUrl, titleFrom } from '../content/media';
import { codePointLength, utf8ByteLength } from '../content/text-length';
import { codeForStatus, isTransientStatus, PlatformHttp, PlatformResponse } from '../http/platform-http';
import { failed, malformedAnswer, published, toOutcome, unreadablePublishAnswer } from '../outcome';
import { arrayAt, at, bearer, ConnectorContext, snakeCase, stringAt } from './connector-context';

/** A video's description takes 5,000 bytes and its title 100 characters; a comment 10,000 characters. */
export const YOUTUBE_DESCRIPTION: TextRule = { field: 'description', max: 5_000, measure: utf8ByteLength, unit: 'bytes' };
export const YOUTUBE_TITLE_MAX = 100;
export const YOUTUBE_COMMENT: TextRule = { field: 'comment', max: 10_000, measure: codePointLength, unit: 'characters' };

/**
 * YouTube Data API v3. A video cannot be given by url, so the connector downloads the post's
 * video and uploads it with a resumable upload: `POST /upload/youtube/v3/videos?uploadType=resumable`
 * (metadata; answers a session url in Location — safe to retry, nothing is public yet), then
 * `PUT` of the bytes to that url — the irreversible call. The title is the content's first line.
 * Comments: `POST /youtube/v3/commentThreads`, replies `POST /youtube/v3/comments`, read from
 * `GET /youtube/v3/commentThreads?part=snippet,replies`. No reconciliation lookup (null).
 */
export class YouTubeConnector implements PlatformConnector {
  readonly platform = 'youtube' as const;
  private readonly http: PlatformHttp;
  private readonly media: PlatformHttp;

  constructor(private readonly ctx: ConnectorContext) {
    this.http = new PlatformHttp(mapYouTubeError, ctx.retry);
    this.media = new PlatformHttp(mapMediaDownloadError, ctx.retry);
  }

  async publish(account: ConnectorAccount, request: PublishRequest): Promise<PublishOutcome> {
    const refusal = firstRefusal(
      requireMedia(request.media.map((m) => m.url), 'videos'),
      request.media.map((m) => m.url).length > 1 || (request.media.map((m) => m.url)[0] !== undefined && !isVideoUrl(request.media.map((m) => m.url)[0]))
        ? unsupportedMedia('a YouTube post is exactly one video (.mp4, .mov, .m4v, .webm)')
        : null,
      checkText(request.content, YOUTUBE_DESCRIPTION),
      /[<>]/.test(request.content) ? { code: 'invalid_characters', message: 'YouTube titles and descriptions cannot contain < or >', retryable: false } : null,
    );
    if (refusal) return failed(refusal);
    return toOutcome(async () => {
      const video = await this.media.send({ method: 'GET', url: request.media.map((m) => m.url)[0], expect: 'bytes' });
      const bytes = video.body as Uint8Array;
      const contentType = video.headers.get('content-type') ?? 'application/octet-stream';
      const session = await this.http.send({
        method: 'POST',
        url: `${this.ctx.baseUrl}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`,
        headers: { ...bearer(account), 'X-Upload-Content-Type': contentType, 'X-Upload-Content-Length': String(bytes.byteLength) },
        json: {
          snippet: { title: titleFrom(request.content, YOUTUBE_TITLE_MAX) || 'Untitled', description: request.content },
          status: { privacyStatus: 'public' },
        },
      });
      const uploadUrl = session.headers.get('location');
      if (!uploadUrl) throw malformedAnswer('upload session Location header');
      const uploaded = await this.http.send({ method: 'PUT', url: uploadUrl, headers: bearer(account), raw: { body: bytes, contentType }, irreversible: true });
      const id = stringAt(uploaded.body, 'id');
      if (!id) throw unreadablePublishAnswer('video id');
      return published(id, `https://www.youtube.com/watch?v=${id}`);
    });
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

  async findPublished(): Promise<null> {
    return null;
  }

  async listComments(account: ConnectorAccount, platformPostId: string): Promise<PlatformComment[]> {
    const query = new URLSearchParams({ part: 'snippet,replies', videoId: platformPostId, maxResults: '100', textFormat: 'plainText' });
    const response = await this.http.send({ method: 'GET', url: `${this.ctx.baseUrl}/youtube/v3/commentThreads?${query}`, headers: bearer(account) });
    const toComment = (comment: unknown, parentId: string | null): PlatformComment => {
      const id = stringAt(comment, 'id');
      if (!id) throw malformedAnswer('comment id');
      return {
        platformCommentId: id,
        author: stringAt(comment, 'snippet', 'authorDisplayName') ?? 'unknown',
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
  return {
    code: tokenRefused ?? (reason ? snakeCase(reason) : codeForStatus(response.status)),
    message: stringAt(response.body, 'error', 'message') ?? `YouTube answered HTTP ${response.status}`,
    retryable: reason === 'quotaExceeded' ? false : isTransientStatus(response.status) || (reason !== undefined && TRANSIENT_REASONS.has(reason)),
  };
}

/** The media host is not the platform: any refusal to serve the video is `media_unreachable`. */
function mapMediaDownloadError(response: PlatformResponse): PlatformError {
  return { code: 'media_unreachable', message: `the media url answered HTTP ${response.status}`, retryable: isTransientStatus(response.status) };
}

import type { ConnectorAccount, PlatformComment, PlatformConnector, PlatformError, PublishOutcome, PublishRequest } from '../connector';
import { bareHandle } from '../connector';
import { checkText, firstRefusal, requireMedia, TextRule, unsupportedMedia } from '../content/content-rules';
import { isVideoUrl, titleFrom } from '../content/media';
import { utf16Length } from '../content/text-length';
import { codeForStatus, isTransientStatus, PlatformCallFailed, PlatformHttp, PlatformResponse } from '../http/platform-http';
import { failed, published, toOutcome, unreadablePublishAnswer } from '../outcome';
import { bearer, ConnectorContext, stringAt } from './connector-context';
import { commentsNotSupported } from './unsupported';

/** A video's title (its caption) takes 2,200 UTF-16 units; a photo post's description 4,000, its title 90. */
export const TIKTOK_VIDEO_TITLE: TextRule = { field: 'title', max: 2_200, measure: utf16Length, unit: 'UTF-16 units' };
export const TIKTOK_PHOTO_DESCRIPTION: TextRule = { field: 'description', max: 4_000, measure: utf16Length, unit: 'UTF-16 units' };
export const TIKTOK_PHOTO_TITLE_MAX = 90;
export const TIKTOK_PHOTOS_MAX = 35;

/**
 * TikTok Content Posting API (Direct Post): `POST /v2/post/publish/video/init/` for one video
 * or `POST /v2/post/publish/content/init/` (media_type PHOTO) for photos, both pulling the
 * media from its url; then one `POST /v2/post/publish/status/fetch/`. Posting is
 * asynchronous: until TikTok has made the video public (moderation can take minutes), the
 * platformPostId is the publish_id and the url is the profile. Media is required.
 * The public API cannot post or read comments: comment() fails with comments_not_supported,
 * listComments() answers [] and findPublished() null, all without a request.
 */
export class TikTokConnector implements PlatformConnector {
  readonly platform = 'tiktok' as const;
  private readonly http: PlatformHttp;

  constructor(private readonly ctx: ConnectorContext) {
    this.http = new PlatformHttp(mapTikTokError, ctx.retry);
  }

  async publish(account: ConnectorAccount, request: PublishRequest): Promise<PublishOutcome> {
    const videos = request.media.map((m) => m.url).filter(isVideoUrl);
    const refusal = firstRefusal(
      requireMedia(request.media.map((m) => m.url), 'videos and photos'),
      videos.length > 0 && request.media.map((m) => m.url).length > 1 ? unsupportedMedia('a TikTok post is one video, or photos only') : null,
      request.media.map((m) => m.url).length > TIKTOK_PHOTOS_MAX ? unsupportedMedia(`a photo post takes at most ${TIKTOK_PHOTOS_MAX} photos`) : null,
      checkText(request.content, videos.length > 0 ? TIKTOK_VIDEO_TITLE : TIKTOK_PHOTO_DESCRIPTION),
    );
    if (refusal) return failed(refusal);
    const [path, body] =
      videos.length > 0
        ? ['/v2/post/publish/video/init/', {
            post_info: { title: request.content, privacy_level: 'PUBLIC_TO_EVERYONE' },
            source_info: { source: 'PULL_FROM_URL', video_url: videos[0] },
          }]
        : ['/v2/post/publish/content/init/', {
            post_info: { title: titleFrom(request.content, TIKTOK_PHOTO_TITLE_MAX), description: request.content, privacy_level: 'PUBLIC_TO_EVERYONE' },
            source_info: { source: 'PULL_FROM_URL', photo_cover_index: 0, photo_images: request.media.map((m) => m.url) },
            post_mode: 'DIRECT_POST',
            media_type: 'PHOTO',
          }];
    return toOutcome(async () => {
      const response = await this.http.send({ method: 'POST', url: `${this.ctx.baseUrl}${path}`, headers: bearer(account), json: body, irreversible: true });
      const publishId = stringAt(response.body, 'data', 'publish_id');
      if (!publishId) throw unreadablePublishAnswer('data.publish_id');
      const videoId = await this.publicPostId(account, publishId);
      return videoId
        ? published(videoId, `https://www.tiktok.com/@${bareHandle(account)}/video/${videoId}`)
        : published(publishId, `https://www.tiktok.com/@${bareHandle(account)}`);
    });
  }

  async comment(): Promise<PublishOutcome> {
    return failed(commentsNotSupported('TikTok'));
  }

  async findPublished(): Promise<null> {
    return null;
  }

  async listComments(): Promise<PlatformComment[]> {
    return [];
  }

  /** One status read, best effort: the post exists whatever it says. */
  private async publicPostId(account: ConnectorAccount, publishId: string): Promise<string | null> {
    try {
      const response = await this.http.send({
        method: 'POST',
        url: `${this.ctx.baseUrl}/v2/post/publish/status/fetch/`,
        headers: bearer(account),
        json: { publish_id: publishId },
      });
      return stringAt(response.body, 'data', 'status') === 'PUBLISH_COMPLETE'
        ? (stringAt(response.body, 'data', 'publicaly_available_post_id', 0) ?? null)
        : null;
    } catch (error) {
      if (error instanceof PlatformCallFailed) return null;
      throw error;
    }
  }
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

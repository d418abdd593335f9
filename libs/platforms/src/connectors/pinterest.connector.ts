import type { ConnectorAccount, PlatformComment, PlatformConnector, PlatformError, PublishOutcome, PublishRequest } from '../connector';
import { checkText, firstRefusal, requireMedia, TextRule, unsupportedMedia } from '../content/content-rules';
import { isVideoUrl, titleFrom } from '../content/media';
import { codePointLength } from '../content/text-length';
import { codeForStatus, isTransientStatus, PlatformHttp, PlatformResponse } from '../http/platform-http';
import { failed, published, toOutcome, unreadablePublishAnswer } from '../outcome';
import { arrayAt, at, bearer, comparableText, ConnectorContext, stringAt } from './connector-context';
import { commentsNotSupported } from './unsupported';

/** A Pin's description takes 800 characters, its title 100. */
export const PINTEREST_DESCRIPTION: TextRule = { field: 'description', max: 800, measure: codePointLength, unit: 'characters' };
export const PINTEREST_TITLE_MAX = 100;

/**
 * Pinterest API v5: `POST /v5/pins` on the board in identity.attributes.boardId, the image(s)
 * pulled from their urls (`image_url`, or `multiple_image_urls` for several). Media is
 * required; video pins need Pinterest's separate media upload, not done here, so a video
 * fails with media_not_supported. Reconciliation on `GET /v5/boards/{board_id}/pins`.
 * The v5 API has no comment endpoints: comment() fails with comments_not_supported and
 * listComments() answers [], without a request.
 */
export class PinterestConnector implements PlatformConnector {
  readonly platform = 'pinterest' as const;
  private readonly http: PlatformHttp;

  constructor(private readonly ctx: ConnectorContext) {
    this.http = new PlatformHttp(mapPinterestError, ctx.retry);
  }

  async publish(account: ConnectorAccount, request: PublishRequest): Promise<PublishOutcome> {
    const refusal = firstRefusal(
      requireMedia(request.media.map((m) => m.url), 'images'),
      request.media.map((m) => m.url).some(isVideoUrl) ? unsupportedMedia('video pins need a media upload this connector does not do; use images') : null,
      checkText(request.content, PINTEREST_DESCRIPTION),
      account.identity.attributes.boardId ? null : { code: 'board_required', message: 'the Pinterest account has no board to pin to; connect it again and pick a board', retryable: false },
    );
    if (refusal) return failed(refusal);
    const mediaSource =
      request.media.map((m) => m.url).length === 1
        ? { source_type: 'image_url', url: request.media.map((m) => m.url)[0] }
        : { source_type: 'multiple_image_urls', items: request.media.map((m) => m.url).map((url) => ({ url })) };
    return toOutcome(async () => {
      const response = await this.http.send({
        method: 'POST',
        url: `${this.ctx.baseUrl}/v5/pins`,
        headers: bearer(account),
        json: {
          board_id: boardOf(account),
          title: titleFrom(request.content, PINTEREST_TITLE_MAX),
          description: request.content,
          media_source: mediaSource,
        },
        irreversible: true,
      });
      const id = stringAt(response.body, 'id');
      if (!id) throw unreadablePublishAnswer('id');
      return published(id, pinUrl(id));
    });
  }

  async comment(): Promise<PublishOutcome> {
    return failed(commentsNotSupported('Pinterest'));
  }

  async findPublished(account: ConnectorAccount, request: PublishRequest): Promise<{ platformPostId: string; url: string } | null> {
    const response = await this.http.send({
      method: 'GET',
      url: `${this.ctx.baseUrl}/v5/boards/${encodeURIComponent(boardOf(account))}/pins?page_size=25`,
      headers: bearer(account),
    });
    const wanted = comparableText(request.content);
    const match = arrayAt(response.body, 'items').find((pin) => comparableText(stringAt(pin, 'description') ?? '') === wanted);
    const id = stringAt(match, 'id');
    return id ? { platformPostId: id, url: pinUrl(id) } : null;
  }

  async listComments(): Promise<PlatformComment[]> {
    return [];
  }
}

function pinUrl(id: string): string {
  return `https://www.pinterest.com/pin/${id}/`;
}

/**
 * Pinterest's numeric codes we act on: 2 "Authentication failed." is its 401 for an access
 * token it refuses, expired or revoked alike; 283 "The authorization grant is invalid" is
 * the token endpoint's refusal of a code or refresh token.
 */
const PINTEREST_CODES: Record<number, string> = { 2: 'access_token_invalid', 283: 'invalid_grant' };

/** Pinterest errors: {"code": 2, "message": "Authentication failed."}. */
export function mapPinterestError(response: PlatformResponse): PlatformError {
  const code = at(response.body, 'code');
  return {
    code: response.status === 429 ? 'rate_limited' : typeof code === 'number' ? (PINTEREST_CODES[code] ?? `pinterest_error_${code}`) : codeForStatus(response.status),
    message: stringAt(response.body, 'message') ?? `Pinterest answered HTTP ${response.status}`,
    retryable: isTransientStatus(response.status),
  };
}

/** The board pins go to, chosen when the account was connected. */
function boardOf(account: ConnectorAccount): string {
  return account.identity.attributes.boardId ?? '';
}

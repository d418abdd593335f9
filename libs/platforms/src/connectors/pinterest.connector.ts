import type { PlatformBoard } from '@app/contracts';
import type { AccountMetricsReading, ItemMetricsReading } from '@app/contracts';
import { countOf, itemMetrics, rawObject, readingMetrics } from './metrics-reading';
import type { MediaFile, MediaRef } from '@app/media';
import type { ConnectorAccount, PlatformComment, PlatformConnector, PlatformError, PublishedLookup, PublishOutcome, PublishRequest } from '../connector';
import { firstRefusal, TextRule } from '../content/content-rules';
import { titleFrom } from '../content/title';
import { GIB, MIB, PlatformMediaRules, withCheckedMedia } from '../content/media-rules';
import { codePointLength } from '../content/text-length';
import { codeForStatus, isTransientStatus, PlatformCallFailed, PlatformHttp, PlatformResponse } from '../http/platform-http';
import { failed, malformedAnswer, published, toOutcome, unreadablePublishAnswer } from '../outcome';
import { arrayAt, at, bearer, ConnectorContext, snakeCase, stringAt } from './connector-context';
import { findInWindow, platformTimeMs, PublishedCandidate } from './published-lookup';
import { pollUntilDone } from './processing-wait';
import { commentActionNotSupported, commentsNotSupported } from './unsupported';
import { optionsOf, PinterestOptions } from '../options/platform-options';
import { limitRefusal, PublishLimits } from '../content/publish-limit-rules';

/** The most pages of boards read (250 each: 10,000 boards). */
const BOARD_PAGES_MAX = 40;

/** A Pin's description takes 800 characters, its title 100. */
export const PINTEREST_DESCRIPTION: TextRule = { field: 'description', max: 800, measure: codePointLength, unit: 'characters' };
export const PINTEREST_TITLE_MAX = 100;

/**
 * "Pinterest product specs" (https://help.pinterest.com/en/business/article/pinterest-product-specs):
 * image Pins JPEG, PNG, WebP or GIF up to 20 MB; carousels 2 to 5 images; video Pins MP4, MOV or
 * M4V up to 2 GB, 4 seconds to 15 minutes, between 1:2 (tall) and 1.91:1 (wide). A video or a GIF
 * is a Pin on its own. alt_text takes 500 characters (API v5 "Create Pin",
 * https://developers.pinterest.com/docs/api/v5/pins-create).
 */
export const PINTEREST_MEDIA: PlatformMediaRules = {
  maxItems: 5,
  image: { types: ['image/jpeg', 'image/png', 'image/webp'], maxBytes: 20 * MIB },
  gif: { types: ['image/gif'], maxBytes: 20 * MIB },
  video: { types: ['video/mp4', 'video/quicktime'], maxBytes: 2 * GIB, minSeconds: 4, maxSeconds: 15 * 60, minAspectRatio: 1 / 2, maxAspectRatio: 1.91 },
  animatedAlone: true,
  maxAltText: 500,
};

/** How long a registered video may stay in processing before the pin is given up (the upload is harmless). */
export const PINTEREST_MAX_PROCESSING_WAIT_MS = 5 * 60_000;

/** The video frame a video Pin shows before it plays, in seconds: one second in, past a fade from black. */
const COVER_KEY_FRAME_SECONDS = 1;


/** What Pinterest refuses before any request (publish-limit-rules.ts). */
export const PINTEREST_LIMITS: PublishLimits = { name: 'Pinterest', text: [PINTEREST_DESCRIPTION], media: PINTEREST_MEDIA, mediaOnly: 'images and videos', trims: false };

/**
 * Pinterest API v5: `POST /v5/pins` on the board in identity.attributes.boardId, the
 * irreversible call. Images are pulled by Pinterest from their urls (media_source `image_url`,
 * or `multiple_image_urls` for a carousel), after the connector fetched and checked them under
 * PINTEREST_MEDIA. A video goes through the media upload ("Creating Pins", video section,
 * https://developers.pinterest.com/docs/content/update/): `POST /v5/media` registers it and answers
 * an upload_url with upload_parameters, the file is POSTed there as multipart form (the
 * parameters, then `file`, streamed from disk; S3 answers 204), `GET /v5/media/{media_id}` is
 * polled until `succeeded` (bounded: media_processing_timeout; `failed`: media_processing_failed),
 * then the pin names media_source `video_id` with a cover frame. Uploads are safe to repeat: an
 * unattached one is harmless. Alt text: the pin's alt_text for a single image or video; a
 * carousel's items have no alt text field, so there it is dropped. Media is required.
 * Reconciliation on `GET /v5/boards/{board_id}/pins`. The v5 API has no comment endpoints:
 * comment() fails with comments_not_supported and listComments() answers [], without a request.
 */
export class PinterestConnector implements PlatformConnector {
  readonly platform = 'pinterest' as const;
  private readonly http: PlatformHttp;
  private readonly storage: PlatformHttp;

  constructor(private readonly ctx: ConnectorContext) {
    this.http = new PlatformHttp(mapPinterestError, ctx.retry);
    this.storage = new PlatformHttp(mapStorageError, ctx.retry);
  }

  async publish(account: ConnectorAccount, request: PublishRequest): Promise<PublishOutcome> {
    const refusal = firstRefusal(
      limitRefusal(PINTEREST_LIMITS, request),
      boardOf(account, request) ? null : { code: 'board_required', message: 'the Pinterest account has no board to pin to: give platformOptions.pinterest.boardId, or connect it again and pick a board', retryable: false },
    );
    if (refusal) return failed(refusal);
    // "Create Pin" (https://developers.pinterest.com/docs/api/v5/pins-create): the Pin's `link` and `title` when the post's options give them.
    const { link, title } = optionsOf<PinterestOptions>(request);
    return toOutcome(() =>
      withCheckedMedia(this.ctx.media, request.media, PINTEREST_MEDIA, 'Pinterest', async (files) => {
        const mediaSource = files[0].kind === 'video' ? await this.uploadedVideo(account, files[0]) : imageSource(request.media);
        const response = await this.http.send({
          method: 'POST',
          url: `${this.ctx.baseUrl}/v5/pins`,
          headers: bearer(account),
          json: {
            board_id: boardOf(account, request),
            title: title ?? titleFrom(request.content, PINTEREST_TITLE_MAX),
            ...(link ? { link } : {}),
            description: request.content,
            ...(request.media.length === 1 && request.media[0].altText ? { alt_text: request.media[0].altText } : {}),
            media_source: mediaSource,
          },
          irreversible: true,
        });
        const id = stringAt(response.body, 'id');
        if (!id) throw unreadablePublishAnswer('id');
        return published(id, pinUrl(id));
      }),
    );
  }

  /** Registers, uploads and waits for a video; answers the media_source naming it. */
  private async uploadedVideo(account: ConnectorAccount, video: MediaFile): Promise<Record<string, unknown>> {
    const registered = await this.http.send({ method: 'POST', url: `${this.ctx.baseUrl}/v5/media`, headers: bearer(account), json: { media_type: 'video' } });
    const mediaId = stringAt(registered.body, 'media_id');
    const uploadUrl = stringAt(registered.body, 'upload_url');
    const parameters = at(registered.body, 'upload_parameters');
    if (!mediaId || !uploadUrl || parameters === null || typeof parameters !== 'object') throw malformedAnswer('media_id, upload_url and upload_parameters');
    // The storage's form upload: every upload parameter as a field, the file last (it ends the form).
    const form = new FormData();
    for (const [name, value] of Object.entries(parameters)) form.append(name, String(value));
    form.append('file', await video.blob(), fileNameOf(video.url));
    await this.storage.send({ method: 'POST', url: uploadUrl, multipart: form });
    const ready = await pollUntilDone(this.ctx.retry, PINTEREST_MAX_PROCESSING_WAIT_MS, () => this.videoReady(account, mediaId));
    if (!ready) {
      throw new PlatformCallFailed({ code: 'media_processing_timeout', message: `Pinterest was still processing the video after ${PINTEREST_MAX_PROCESSING_WAIT_MS / 1000} s`, retryable: true });
    }
    return { source_type: 'video_id', media_id: mediaId, cover_image_key_frame_time: COVER_KEY_FRAME_SECONDS };
  }

  /** `GET /v5/media/{media_id}`: true once `succeeded`, undefined while `registered` or `processing`. */
  private async videoReady(account: ConnectorAccount, mediaId: string): Promise<true | undefined> {
    const response = await this.http.send({ method: 'GET', url: `${this.ctx.baseUrl}/v5/media/${encodeURIComponent(mediaId)}`, headers: bearer(account) });
    const status = stringAt(response.body, 'status');
    if (status === 'failed') throw new PlatformCallFailed({ code: 'media_processing_failed', message: 'Pinterest could not process the video', retryable: false });
    return status === 'succeeded' ? true : undefined;
  }

  async comment(): Promise<PublishOutcome> {
    return failed(commentsNotSupported('Pinterest'));
  }

  /**
   * The board's pins ("List Pins on board", https://developers.pinterest.com/docs/api/v5/boards-list_pins):
   * `GET /v5/boards/{board_id}/pins`, newest first, `page_size` up to 250, `bookmark` for the next page;
   * each Pin has `created_at` (UTC, no offset) and `media.media_type` (a carousel, multiple_*, lists its
   * `items`). Matched by findInWindow.
   */
  async findPublished(account: ConnectorAccount, request: PublishedLookup): Promise<{ platformPostId: string; url: string } | null> {
    return findInWindow(request, 'Pinterest', async (cursor) => {
      const query = new URLSearchParams({ page_size: '100', ...(cursor ? { bookmark: cursor } : {}) });
      const response = await this.http.send({ method: 'GET', url: `${this.ctx.baseUrl}/v5/boards/${encodeURIComponent(boardOf(account, request))}/pins?${query}`, headers: bearer(account) });
      const candidates = arrayAt(response.body, 'items').map((pin): PublishedCandidate => {
        const id = stringAt(pin, 'id');
        if (!id) throw malformedAnswer('id on a pin');
        const mediaType = stringAt(pin, 'media', 'media_type') ?? '';
        const mediaCount = mediaType.startsWith('multiple_') ? arrayAt(pin, 'media', 'items').length : mediaType === 'image' || mediaType === 'video' ? 1 : null;
        return { platformPostId: id, url: pinUrl(id), text: stringAt(pin, 'description') ?? '', createdAtMs: platformTimeMs(at(pin, 'created_at')), mediaCount };
      });
      return { candidates, next: stringAt(response.body, 'bookmark') ?? null };
    });
  }

  /**
   * The account's boards ("List boards", https://developers.pinterest.com/docs/api/v5/boards-list):
   * `GET /v5/boards` with `page_size` up to 250 and the answer's `bookmark` for the next page until
   * it is null; each board has `id`, `name`, `description` and `privacy` (PUBLIC, PROTECTED, SECRET).
   * Bounded at BOARD_PAGES_MAX pages, so a platform that keeps answering a bookmark cannot loop us.
   */
  async listBoards(account: ConnectorAccount): Promise<PlatformBoard[]> {
    const boards: PlatformBoard[] = [];
    let bookmark: string | null = null;
    for (let page = 0; page < BOARD_PAGES_MAX; page++) {
      const query = new URLSearchParams({ page_size: '250', ...(bookmark ? { bookmark } : {}) });
      const response = await this.http.send({ method: 'GET', url: `${this.ctx.baseUrl}/v5/boards?${query}`, headers: bearer(account) });
      for (const board of arrayAt(response.body, 'items')) {
        const id = stringAt(board, 'id');
        if (!id) throw malformedAnswer('id on a board');
        boards.push({ id, name: stringAt(board, 'name') ?? '', description: stringAt(board, 'description') ?? null, privacy: stringAt(board, 'privacy') ?? null });
      }
      bookmark = stringAt(response.body, 'bookmark') ?? null;
      if (!bookmark) return boards;
    }
    throw malformedAnswer(`an end to the boards after ${BOARD_PAGES_MAX} pages`);
  }

  async setCommentHidden(): Promise<void> {
    throw commentActionNotSupported('Pinterest', 'hiding comments');
  }

  /**
   * "Get Pin analytics" (https://developers.pinterest.com/docs/api/v5/pins-analytics; pins:read, boards:read) over
   * the longest window it takes, the last 90 days: summary_metrics' IMPRESSION, SAVE, PIN_CLICK (clicks;
   * OUTBOUND_CLICK kept raw), VIDEO_MRC_VIEW (videoViews). Pinterest gives no reach, likes, comments or shares
   * per Pin here: null. A pin older than 90 days counts only its last 90 days.
   */
  async fetchItemMetrics(account: ConnectorAccount, platformPostId: string): Promise<ItemMetricsReading> {
    const day = (offsetDays: number) => new Date(this.ctx.retry.now() - offsetDays * 86_400_000).toISOString().slice(0, 10);
    const query = new URLSearchParams({ start_date: day(89), end_date: day(0), metric_types: 'IMPRESSION,SAVE,PIN_CLICK,OUTBOUND_CLICK,VIDEO_MRC_VIEW', app_types: 'ALL' });
    const response = await readingMetrics(
      () => this.http.send({ method: 'GET', url: `${this.ctx.baseUrl}/v5/pins/${encodeURIComponent(platformPostId)}/analytics?${query}`, headers: bearer(account) }),
      ['pinterest_error_3'],
      ['boards:read', 'pins:read'],
    );
    const raw = rawObject(at(response.body, 'all', 'summary_metrics'), 'summary_metrics');
    return { metrics: itemMetrics({ impressions: raw.IMPRESSION, saves: raw.SAVE, clicks: raw.PIN_CLICK, videoViews: raw.VIDEO_MRC_VIEW }), raw };
  }

  /** "Get user account" (https://developers.pinterest.com/docs/api/v5/user_account-get; user_accounts:read): follower_count. */
  async fetchAccountMetrics(account: ConnectorAccount): Promise<AccountMetricsReading> {
    const response = await readingMetrics(
      () => this.http.send({ method: 'GET', url: `${this.ctx.baseUrl}/v5/user_account`, headers: bearer(account) }),
      ['pinterest_error_3'],
      ['user_accounts:read'],
    );
    const raw = { follower_count: at(response.body, 'follower_count'), monthly_views: at(response.body, 'monthly_views') };
    return { followers: countOf(raw.follower_count), raw };
  }

  async deleteComment(): Promise<void> {
    throw commentActionNotSupported('Pinterest', 'deleting comments');
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

/** One image pulled by url, or a carousel of them (their alt texts have no field there). */
function imageSource(media: readonly MediaRef[]): Record<string, unknown> {
  return media.length === 1
    ? { source_type: 'image_url', url: media[0].url }
    : { source_type: 'multiple_image_urls', items: media.map((item) => ({ url: item.url })) };
}

/** The name the file part carries: the url's last path segment, as a browser or curl would send it. */
function fileNameOf(url: string): string {
  return new URL(url).pathname.split('/').pop() || 'video';
}

/**
 * The upload_url is Pinterest's storage (Amazon S3's POST Object), not its API: its errors are
 * S3's XML (`<Error><Code>AccessDenied</Code>...`), named by their Code.
 */
function mapStorageError(response: PlatformResponse): PlatformError {
  const code = typeof response.body === 'string' ? /<Code>([^<]+)<\/Code>/.exec(response.body)?.[1] : undefined;
  return {
    code: code ? snakeCase(code) : codeForStatus(response.status),
    message: `the Pinterest media upload answered HTTP ${response.status}${code ? ` (${code})` : ''}`,
    retryable: isTransientStatus(response.status),
  };
}

/** The board a post's pin goes to (and is looked up on): its options' boardId, else the one chosen when the account was connected. */
function boardOf(account: ConnectorAccount, request: PublishRequest): string {
  return optionsOf<PinterestOptions>(request).boardId ?? account.identity.attributes.boardId ?? '';
}

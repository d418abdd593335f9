import type { MediaFile, MediaRef } from '@app/media';
import type { AccountMetricsReading, ItemMetricsReading } from '@app/contracts';
import { countOf, itemMetrics, rawObject, readingMetrics } from './metrics-reading';
import type { CommentRef, CommentTarget, ConnectorAccount, PlatformComment, PlatformConnector, PlatformError, PublishedLookup, PublishOutcome, PublishRequest } from '../connector';
import { checkText, firstRefusal, requireText, TextRule, unsupportedMedia } from '../content/content-rules';
import { MIB, PlatformMediaRules, withCheckedMedia } from '../content/media-rules';
import { mastodonLength } from '../content/text-length';
import { codeForStatus, isTransientStatus, PlatformCallFailed, PlatformHttp, PlatformResponse } from '../http/platform-http';
import { failed, malformedAnswer, published, toOutcome, unreadablePublishAnswer } from '../outcome';
import { arrayAt, at, bearer, ConnectorContext, stringAt } from './connector-context';
import { findInWindow, platformTimeMs, PublishedCandidate } from './published-lookup';
import { ProcessingState, uploadAll, uploadFileName, waitUntilProcessed } from './media-upload';
import { commentActionNotSupported } from './unsupported';
import { MastodonOptions, optionsOf } from '../options/platform-options';
import { limitRefusal, PublishLimits } from '../content/publish-limit-rules';

/** Mastodon's default limit is 500 characters, each URL counting 23 (instances may raise it). */
export const MASTODON_TEXT: TextRule = { field: 'status', max: 500, measure: mastodonLength, unit: 'characters' };

/** What MASTODON_TEXT measures: the content warning (`spoiler_text`) counts toward the limit with the text. */
function countedStatus(text: string, spoilerText: string | undefined): string {
  return `${spoilerText ?? ''}${text}`;
}


/**
 * Mastodon's media rules ("Posting to your profile > Attachments", https://docs.joinmastodon.org/user/posting/#media):
 * up to 4 attachments; images (PNG, JPG, WEBP) and animated GIFs up to 16 MB, videos (MP4, MOV,
 * WebM) up to 99 MB. A description (alt text) takes 1,500 characters (MediaAttachment's
 * MAX_DESCRIPTION_LENGTH, https://github.com/mastodon/mastodon/blob/main/app/models/media_attachment.rb).
 * Defaults of an instance; one may configure others (Instance configuration.media_attachments).
 */
export const MASTODON_MEDIA: PlatformMediaRules = {
  maxItems: 4,
  image: { types: ['image/jpeg', 'image/png', 'image/webp'], maxBytes: 16 * MIB },
  gif: { types: ['image/gif'], maxBytes: 16 * MIB },
  video: { types: ['video/mp4', 'video/quicktime', 'video/webm'], maxBytes: 99 * MIB },
  maxAltText: 1_500,
};

/** Statuses per page when looking one up: the most "Get account's statuses" gives (limit, max 40). */
const MASTODON_STATUSES_PAGE = 40;


/** What Mastodon refuses before any request (publish-limit-rules.ts): the content warning counts with the text (countedStatus). */
export const MASTODON_LIMITS: PublishLimits = {
  name: 'Mastodon',
  text: [MASTODON_TEXT],
  media: MASTODON_MEDIA,
  trims: true,
  shapedBy: (text, _media, options) => ({ text: countedStatus(text, (options as MastodonOptions).spoiler_text), refusal: null }),
};

/**
 * Mastodon REST API: `POST /api/v1/statuses` (a reply sets in_reply_to_id; media by media_ids,
 * each uploaded first with `POST /api/v2/media` and waited for while processed), comments from
 * `GET /api/v1/statuses/:id/context`, reconciliation on `GET /api/v1/accounts/:id/statuses`.
 *
 * Mastodon honours an `Idempotency-Key` header on status creation (kept for an hour): the
 * same key returns the first status instead of a second one. So, unlike other platforms,
 * a publish whose answer was lost is resent with the same key — safe, and it recovers the id.
 */
export class MastodonConnector implements PlatformConnector {
  readonly platform = 'mastodon' as const;
  private readonly http: PlatformHttp;

  constructor(private readonly ctx: ConnectorContext) {
    this.http = new PlatformHttp(mapMastodonError, ctx.retry);
  }

  /** Mastodon is federated: each account lives on its own instance (the configured base url when none is known). */
  private instance(account: ConnectorAccount): string {
    return (account.identity.instanceUrl ?? this.ctx.baseUrl).replace(/\/+$/, '');
  }

  async publish(account: ConnectorAccount, request: PublishRequest): Promise<PublishOutcome> {
    const text = request.content.trim();
    // visibility, spoiler_text (the content warning) and language as "Post a new status" documents them
    // (https://docs.joinmastodon.org/methods/statuses/#create); absent, a public status.
    const { visibility = 'public', spoiler_text, language } = optionsOf<MastodonOptions>(request);
    // "status: If media_ids is provided, this becomes optional".
    const refusal = limitRefusal(MASTODON_LIMITS, request);
    if (refusal) return failed(refusal);
    // A thread part replies to the part before it: in_reply_to_id (same page).
    const reply: Record<string, string> = request.replyTo ? { in_reply_to_id: request.replyTo } : {};
    const status = { status: text, visibility, ...(spoiler_text ? { spoiler_text } : {}), ...(language ? { language } : {}), ...reply };
    if (request.media.length === 0) return toOutcome(() => this.createStatus(account, status, request.idempotencyKey));
    return toOutcome(() =>
      withCheckedMedia(this.ctx.media, request.media, MASTODON_MEDIA, 'Mastodon', async (files) => {
        const mixed = videoMixRefusal(files);
        if (mixed) throw new PlatformCallFailed(mixed);
        const mediaIds = await uploadAll(files, (file, index) => this.uploadMedia(account, file, request.media[index]));
        return this.createStatus(account, { ...status, media_ids: mediaIds }, request.idempotencyKey);
      }),
    );
  }

  async comment(account: ConnectorAccount, target: CommentTarget, text: string, idempotencyKey: string): Promise<PublishOutcome> {
    const refusal = firstRefusal(requireText(text), checkText(text, MASTODON_TEXT));
    if (refusal) return failed(refusal);
    const inReplyTo = target.kind === 'post' ? target.platformPostId : target.platformCommentId;
    return toOutcome(() => this.createStatus(account, { status: text, visibility: 'public', in_reply_to_id: inReplyTo }, idempotencyKey));
  }

  /**
   * The account's statuses ("Get account's statuses", https://docs.joinmastodon.org/methods/accounts/#statuses):
   * newest first, `limit` up to 40, replies excluded, older pages by `max_id` (the last id seen);
   * each Status has `created_at` and `media_attachments`. Matched by findInWindow.
   */
  async findPublished(account: ConnectorAccount, request: PublishedLookup): Promise<{ platformPostId: string; url: string } | null> {
    const accountId = account.identity.platformAccountId;
    return findInWindow(request, 'Mastodon', async (cursor) => {
      const query = new URLSearchParams({ limit: String(MASTODON_STATUSES_PAGE), exclude_replies: 'true', ...(cursor ? { max_id: cursor } : {}) });
      const response = await this.http.send({ method: 'GET', url: `${this.instance(account)}/api/v1/accounts/${encodeURIComponent(accountId)}/statuses?${query}`, headers: bearer(account) });
      const statuses = arrayAt(response.body);
      const candidates = statuses.map((status): PublishedCandidate => {
        const id = stringAt(status, 'id');
        const url = stringAt(status, 'url');
        if (!id || !url) throw malformedAnswer('id and url on a status');
        return { platformPostId: id, url, text: htmlToText(stringAt(status, 'content') ?? ''), createdAtMs: platformTimeMs(at(status, 'created_at')), mediaCount: arrayAt(status, 'media_attachments').length };
      });
      const last = candidates[candidates.length - 1];
      return { candidates, next: statuses.length < MASTODON_STATUSES_PAGE || !last ? null : last.platformPostId };
    });
  }

  async setCommentHidden(): Promise<void> {
    throw commentActionNotSupported('Mastodon', 'hiding comments');
  }

  /**
   * `DELETE /api/v1/statuses/:id` ("Delete a status", https://docs.joinmastodon.org/methods/statuses/#delete;
   * write:statuses): the account's own statuses only. Answers the deleted Status; 404 "Record not found"
   * once it is gone, which is taken as deleted (see PlatformConnector.deleteComment).
   */
  /**
   * "View a single status" (https://docs.joinmastodon.org/methods/statuses/#get; read:statuses): the Status'
   * favourites_count, reblogs_count, replies_count (https://docs.joinmastodon.org/entities/Status/#favourites_count).
   * Mastodon counts no impressions, reach, saves, clicks or views: those are null.
   */
  async fetchItemMetrics(account: ConnectorAccount, platformPostId: string): Promise<ItemMetricsReading> {
    const response = await readingMetrics(
      () => this.http.send({ method: 'GET', url: `${this.instance(account)}/api/v1/statuses/${encodeURIComponent(platformPostId)}`, headers: bearer(account) }),
      ['forbidden'],
      ['read:statuses'],
    );
    const status = rawObject(response.body, 'status');
    const raw = { favourites_count: status.favourites_count, reblogs_count: status.reblogs_count, replies_count: status.replies_count };
    return { metrics: itemMetrics({ likes: raw.favourites_count, shares: raw.reblogs_count, comments: raw.replies_count }), raw };
  }

  /** "Verify account credentials" (https://docs.joinmastodon.org/methods/accounts/#verify_credentials; read:accounts): followers_count. */
  async fetchAccountMetrics(account: ConnectorAccount): Promise<AccountMetricsReading> {
    const response = await readingMetrics(
      () => this.http.send({ method: 'GET', url: `${this.instance(account)}/api/v1/accounts/verify_credentials`, headers: bearer(account) }),
      ['forbidden'],
      ['read:accounts'],
    );
    const me = rawObject(response.body, 'account');
    const raw = { followers_count: me.followers_count, following_count: me.following_count, statuses_count: me.statuses_count };
    return { followers: countOf(raw.followers_count), raw };
  }

  async deleteComment(account: ConnectorAccount, comment: CommentRef): Promise<void> {
    await this.http.send({ method: 'DELETE', url: `${this.instance(account)}/api/v1/statuses/${encodeURIComponent(comment.platformCommentId)}`, headers: bearer(account), answers: [404] });
  }

  async listComments(account: ConnectorAccount, platformPostId: string): Promise<PlatformComment[]> {
    const response = await this.http.send({
      method: 'GET',
      url: `${this.instance(account)}/api/v1/statuses/${encodeURIComponent(platformPostId)}/context`,
      headers: bearer(account),
    });
    return arrayAt(response.body, 'descendants').map((status): PlatformComment => {
      const id = stringAt(status, 'id');
      if (!id) throw malformedAnswer('id on a status');
      const parent = stringAt(status, 'in_reply_to_id') ?? platformPostId;
      return {
        platformCommentId: id,
        // A Status' `account` (https://docs.joinmastodon.org/entities/Status/#account): acct for the list, id for our own.
        author: stringAt(status, 'account', 'acct') ?? 'unknown',
        authorPlatformId: stringAt(status, 'account', 'id') ?? null,
        text: htmlToText(stringAt(status, 'content') ?? ''),
        createdAt: stringAt(status, 'created_at') ?? '',
        url: stringAt(status, 'url') ?? null,
        parentPlatformPostId: platformPostId,
        inReplyToCommentId: parent === platformPostId ? null : parent,
      };
    });
  }

  /**
   * "Upload media as an attachment (async)" (https://docs.joinmastodon.org/methods/media/#v2): the file
   * streamed from the spooled copy as a multipart part, its alt text as `description`. 200 when
   * processed at once (images), 202 with a null url while it is processed in the background.
   */
  private async uploadMedia(account: ConnectorAccount, file: MediaFile, ref: MediaRef): Promise<string> {
    const form = new FormData();
    form.append('file', await file.blob(), uploadFileName(file));
    if (ref.altText !== null) form.append('description', ref.altText);
    const response = await this.http.send({ method: 'POST', url: `${this.instance(account)}/api/v2/media`, headers: bearer(account), multipart: form });
    const id = stringAt(response.body, 'id');
    if (!id) throw malformedAnswer('id on a media attachment');
    await waitUntilProcessed(this.http.policy, `media item ${file.url}`, attachmentState(response), () => this.attachmentStatus(account, id));
    return id;
  }

  /**
   * "Get media attachment" (https://docs.joinmastodon.org/methods/media/#get): 206 while still
   * processing, 200 with its url once processed, 422 when processing failed.
   */
  private async attachmentStatus(account: ConnectorAccount, id: string): Promise<ProcessingState> {
    try {
      return attachmentState(await this.http.send({ method: 'GET', url: `${this.instance(account)}/api/v1/media/${encodeURIComponent(id)}`, headers: bearer(account) }));
    } catch (error) {
      if (error instanceof PlatformCallFailed && error.error.code === 'validation_failed') return { state: 'failed', message: error.error.message };
      throw error;
    }
  }

  private async createStatus(account: ConnectorAccount, body: Record<string, string | string[]>, idempotencyKey: string): Promise<PublishOutcome> {
    const response = await this.http.send({
      method: 'POST',
      url: `${this.instance(account)}/api/v1/statuses`,
      headers: { ...bearer(account), 'Idempotency-Key': idempotencyKey },
      json: body,
      irreversible: true,
      idempotent: true,
    });
    const id = stringAt(response.body, 'id');
    const url = stringAt(response.body, 'url') ?? stringAt(response.body, 'uri');
    if (!id || !url) throw unreadablePublishAnswer('id and url');
    return published(id, url);
  }
}

/** An upload answer's state: processed once it has a url (202 and 206 answers carry none while processing goes on). */
function attachmentState(response: PlatformResponse): ProcessingState {
  const processing = response.status === 202 || response.status === 206 || stringAt(response.body, 'url') === undefined;
  return processing ? { state: 'processing' } : { state: 'ready' };
}

/**
 * A video (or audio) must be a status's only attachment: Mastodon refuses "Cannot attach a
 * video to a post that already contains images" (PostStatusService#validate_media!,
 * https://github.com/mastodon/mastodon/blob/main/app/services/post_status_service.rb).
 * Animated GIFs become gifv attachments, which may share a status with images.
 */
function videoMixRefusal(files: readonly MediaFile[]): PlatformError | null {
  return files.length > 1 && files.some((file) => file.kind === 'video') ? unsupportedMedia('a video must be the only media item of a Mastodon status') : null;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&apos;': "'" };

/** Mastodon serves status content as HTML: paragraphs and breaks become newlines, tags go, entities decode. */
export function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>\s*<p>/gi, '\n\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|apos);/g, (entity) => ENTITIES[entity] ?? entity);
}

/**
 * Mastodon errors: {"error": "Validation failed: Text character limit of 500 exceeded"}. A 401 is a refused
 * token ({"error": "The access token is invalid"}, https://docs.joinmastodon.org/methods/accounts/#verify_credentials):
 * Mastodon tokens never expire, so it was revoked or is unknown.
 */
export function mapMastodonError(response: PlatformResponse): PlatformError {
  const message = stringAt(response.body, 'error') ?? `Mastodon answered HTTP ${response.status}`;
  return {
    code: response.status === 401 ? 'access_token_invalid' : response.status === 422 ? 'validation_failed' : codeForStatus(response.status),
    message,
    retryable: isTransientStatus(response.status),
  };
}

import type { CommentTarget, ConnectorAccount, PlatformComment, PlatformConnector, PlatformError, PublishOutcome, PublishRequest } from '../connector';
import { checkText, firstRefusal, requireText, TextRule } from '../content/content-rules';
import { textWithMediaLinks } from '../content/media';
import { mastodonLength } from '../content/text-length';
import { codeForStatus, isTransientStatus, PlatformHttp, PlatformResponse } from '../http/platform-http';
import { failed, malformedAnswer, published, toOutcome, unreadablePublishAnswer } from '../outcome';
import { arrayAt, bearer, comparableText, ConnectorContext, stringAt } from './connector-context';

/** Mastodon's default limit is 500 characters, each URL counting 23 (instances may raise it). */
export const MASTODON_TEXT: TextRule = { field: 'status', max: 500, measure: mastodonLength, unit: 'characters' };

/**
 * Mastodon REST API: `POST /api/v1/statuses` (a reply sets in_reply_to_id), comments from
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
    const text = textWithMediaLinks(request.content, request.media.map((m) => m.url));
    const refusal = firstRefusal(requireText(text), checkText(text, MASTODON_TEXT));
    if (refusal) return failed(refusal);
    return toOutcome(() => this.createStatus(account, { status: text, visibility: 'public' }, request.idempotencyKey));
  }

  async comment(account: ConnectorAccount, target: CommentTarget, text: string, idempotencyKey: string): Promise<PublishOutcome> {
    const refusal = firstRefusal(requireText(text), checkText(text, MASTODON_TEXT));
    if (refusal) return failed(refusal);
    const inReplyTo = target.kind === 'post' ? target.platformPostId : target.platformCommentId;
    return toOutcome(() => this.createStatus(account, { status: text, visibility: 'public', in_reply_to_id: inReplyTo }, idempotencyKey));
  }

  async findPublished(account: ConnectorAccount, request: PublishRequest): Promise<{ platformPostId: string; url: string } | null> {
    const accountId = account.identity.platformAccountId;
    const response = await this.http.send({
      method: 'GET',
      url: `${this.instance(account)}/api/v1/accounts/${encodeURIComponent(accountId)}/statuses?limit=20&exclude_replies=true`,
      headers: bearer(account),
    });
    const wanted = comparableText(textWithMediaLinks(request.content, request.media.map((m) => m.url)));
    const match = arrayAt(response.body).find((status) => comparableText(htmlToText(stringAt(status, 'content') ?? '')) === wanted);
    const id = stringAt(match, 'id');
    const url = stringAt(match, 'url');
    return id && url ? { platformPostId: id, url } : null;
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
        author: stringAt(status, 'account', 'acct') ?? 'unknown',
        text: htmlToText(stringAt(status, 'content') ?? ''),
        createdAt: stringAt(status, 'created_at') ?? '',
        url: stringAt(status, 'url') ?? null,
        parentPlatformPostId: platformPostId,
        inReplyToCommentId: parent === platformPostId ? null : parent,
      };
    });
  }

  private async createStatus(account: ConnectorAccount, body: Record<string, string>, idempotencyKey: string): Promise<PublishOutcome> {
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

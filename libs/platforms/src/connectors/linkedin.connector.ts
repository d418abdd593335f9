import type { CommentTarget, ConnectorAccount, PlatformComment, PlatformConnector, PlatformError, PublishOutcome, PublishRequest } from '../connector';
import { checkText, firstRefusal, requireText, TextRule } from '../content/content-rules';
import { textWithMediaLinks } from '../content/media';
import { codePointLength } from '../content/text-length';
import { codeForStatus, isTransientStatus, PlatformHttp, PlatformResponse } from '../http/platform-http';
import { failed, malformedAnswer, published, toOutcome, unreadablePublishAnswer } from '../outcome';
import { arrayAt, at, bearer, ConnectorContext, snakeCase, stringAt } from './connector-context';

/**
 * The LinkedIn API release (YYYYMM) every call names in its LinkedIn-Version header unless
 * configured (ConnectorContext.linkedInApiVersion). LinkedIn supports each monthly release
 * for at least a year, then answers 426 NONEXISTENT_VERSION ("LinkedIn Marketing API
 * Versioning", https://learn.microsoft.com/en-us/linkedin/marketing/versioning); 202607
 * (July 2026) is a released version. linkedin.connector.spec.ts fails once it is 11 months
 * old, so it is moved forward before LinkedIn sunsets it.
 */
export const LINKEDIN_API_VERSION = '202607';
/**
 * A post's commentary takes 3,000 characters as sent: escaped little text, each reserved
 * character taking its backslash too ("Posts API" commentary and "Little Text Format",
 * https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/little-text-format).
 */
export const LINKEDIN_COMMENTARY: TextRule = { field: 'commentary', max: 3_000, measure: (text) => codePointLength(escapeLittleText(text)), unit: 'characters once escaped' };

/**
 * LinkedIn Posts API: `POST /rest/posts` (the new post's URN comes back in the
 * `x-restli-id` header), comments `POST /rest/socialActions/{urn}/comments` (a reply names
 * its parentComment), read from `GET /rest/socialActions/{urn}/comments`. Every call sends
 * `LinkedIn-Version` and `X-Restli-Protocol-Version: 2.0.0`. identity.platformAccountId is
 * the author URN (urn:li:person:... or urn:li:organization:...); a bare id means a person.
 * No reconciliation: finding a member's posts by author needs a restricted permission.
 */
export class LinkedInConnector implements PlatformConnector {
  readonly platform = 'linkedin' as const;
  private readonly http: PlatformHttp;
  private readonly version: string;

  constructor(private readonly ctx: ConnectorContext) {
    this.http = new PlatformHttp(mapLinkedInError, ctx.retry);
    this.version = ctx.linkedInApiVersion ?? LINKEDIN_API_VERSION;
    // A malformed configured version would fail every call; fail at start instead.
    if (!/^\d{6}(\.\d{2})?$/.test(this.version)) throw new Error(`LinkedIn API version must be YYYYMM (or YYYYMM.RR), got "${this.version}"`);
  }

  async publish(account: ConnectorAccount, request: PublishRequest): Promise<PublishOutcome> {
    const text = textWithMediaLinks(request.content, request.media.map((m) => m.url));
    const refusal = firstRefusal(requireText(text), checkText(text, LINKEDIN_COMMENTARY));
    if (refusal) return failed(refusal);
    return toOutcome(async () => {
      const response = await this.http.send({
        method: 'POST',
        url: `${this.ctx.baseUrl}/rest/posts`,
        headers: this.headers(account),
        json: {
          author: authorUrn(account),
          commentary: escapeLittleText(text),
          visibility: 'PUBLIC',
          distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
          lifecycleState: 'PUBLISHED',
          isReshareDisabledByAuthor: false,
        },
        irreversible: true,
      });
      const urn = response.headers.get('x-restli-id');
      if (!urn) throw unreadablePublishAnswer('x-restli-id header');
      return published(urn, postUrl(urn));
    });
  }

  async comment(account: ConnectorAccount, target: CommentTarget, text: string): Promise<PublishOutcome> {
    const refusal = firstRefusal(requireText(text), checkText(text, LINKEDIN_COMMENTARY));
    if (refusal) return failed(refusal);
    const on = target.kind === 'post' ? target.platformPostId : target.platformCommentId;
    return toOutcome(async () => {
      const response = await this.http.send({
        method: 'POST',
        url: `${this.ctx.baseUrl}/rest/socialActions/${encodeURIComponent(on)}/comments`,
        headers: this.headers(account),
        json: {
          actor: authorUrn(account),
          object: target.platformPostId,
          message: { text: escapeLittleText(text) },
          ...(target.kind === 'comment' ? { parentComment: target.platformCommentId } : {}),
        },
        irreversible: true,
      });
      // The x-restli-id header of a new comment is its numeric id, which no later call
      // accepts; the comment's URN is the body's commentUrn (Comments API, "Create a Comment").
      const urn = stringAt(response.body, 'commentUrn');
      if (!urn) throw unreadablePublishAnswer('commentUrn');
      return published(urn, postUrl(target.platformPostId));
    });
  }

  async findPublished(): Promise<null> {
    return null;
  }

  async listComments(account: ConnectorAccount, platformPostId: string): Promise<PlatformComment[]> {
    const response = await this.http.send({
      method: 'GET',
      url: `${this.ctx.baseUrl}/rest/socialActions/${encodeURIComponent(platformPostId)}/comments`,
      headers: this.headers(account),
    });
    return arrayAt(response.body, 'elements').map((comment): PlatformComment => {
      // Replies and deletes name a comment by its URN (commentUrn); its numeric `id` is
      // only unique under its post (Comments API, "Get Comments on Shares").
      const urn = stringAt(comment, 'commentUrn');
      if (!urn) throw malformedAnswer('commentUrn on a comment');
      const time = Number(at(comment, 'created', 'time'));
      return {
        platformCommentId: urn,
        // The commenter's URN: a member's name is readable only with the restricted
        // Profile API (our OpenID Connect scopes give the signed-in member's own profile),
        // so the URN is the most readable author the granted permissions allow.
        author: stringAt(comment, 'actor') ?? 'unknown',
        text: stringAt(comment, 'message', 'text') ?? '',
        createdAt: Number.isFinite(time) ? new Date(time).toISOString() : '',
        url: null,
        parentPlatformPostId: platformPostId,
        inReplyToCommentId: stringAt(comment, 'parentComment') ?? null,
      };
    });
  }

  private headers(account: ConnectorAccount): Record<string, string> {
    return { ...bearer(account), 'LinkedIn-Version': this.version, 'X-Restli-Protocol-Version': '2.0.0' };
  }
}

function authorUrn(account: ConnectorAccount): string {
  const id = account.identity.platformAccountId;
  return id.startsWith('urn:li:') ? id : `urn:li:person:${id}`;
}

function postUrl(urn: string): string {
  return `https://www.linkedin.com/feed/update/${urn}/`;
}

/**
 * LinkedIn's "little text" format treats these characters as markup; unescaped, the post
 * is silently cut at the first one. Escaping keeps the text exactly as the user wrote it.
 */
export function escapeLittleText(text: string): string {
  return text.replace(/[\\|{}@[\]()<>#*_~]/g, (char) => `\\${char}`);
}

/**
 * LinkedIn errors: {"status": 422, "serviceErrorCode": 100, "code": "ACCESS_DENIED", "message": "..."}.
 * A refused token is a 401 ("Error Handling", https://learn.microsoft.com/en-us/linkedin/shared/api-guide/concepts/error-handling):
 * "The token used in the request has expired" (EXPIRED_ACCESS_TOKEN) is expired; revoked,
 * invalid ("Invalid access token", 65600) or missing tokens are invalid.
 */
export function mapLinkedInError(response: PlatformResponse): PlatformError {
  const label = stringAt(response.body, 'code');
  const message = stringAt(response.body, 'message') ?? `LinkedIn answered HTTP ${response.status}`;
  return {
    code: response.status === 401 ? refusedTokenCode(`${label ?? ''} ${message}`) : response.status === 429 ? 'rate_limited' : label ? snakeCase(label) : codeForStatus(response.status),
    message,
    retryable: isTransientStatus(response.status),
  };
}

function refusedTokenCode(said: string): 'access_token_expired' | 'access_token_invalid' {
  return /expired/i.test(said) ? 'access_token_expired' : 'access_token_invalid';
}

import type { CommentTarget, ConnectorAccount, PlatformComment, PlatformConnector, PlatformError, PublishOutcome, PublishRequest } from '../connector';
import { platformUserIdOf } from '../connector';
import { checkText, firstRefusal, requireText, TextRule } from '../content/content-rules';
import { textWithMediaLinks } from '../content/media';
import { codePointLength } from '../content/text-length';
import { codeForStatus, isTransientStatus, PlatformHttp, PlatformResponse } from '../http/platform-http';
import { failed, malformedAnswer, published, toOutcome, unreadablePublishAnswer } from '../outcome';
import { arrayAt, at, bearer, ConnectorContext, snakeCase, stringAt } from './connector-context';

/** The versioned LinkedIn API release (YYYYMM) every call names in its LinkedIn-Version header. */
export const LINKEDIN_API_VERSION = '202506';
/** A post's commentary takes up to 3,000 characters. */
export const LINKEDIN_COMMENTARY: TextRule = { field: 'commentary', max: 3_000, measure: codePointLength, unit: 'characters' };

/**
 * LinkedIn Posts API: `POST /rest/posts` (the new post's URN comes back in the
 * `x-restli-id` header), comments `POST /rest/socialActions/{urn}/comments` (a reply names
 * its parentComment), read from `GET /rest/socialActions/{urn}/comments`. Every call sends
 * `LinkedIn-Version` and `X-Restli-Protocol-Version: 2.0.0`. credentials.platformUserId is
 * the author URN (urn:li:person:... or urn:li:organization:...); a bare id means a person.
 * No reconciliation: finding a member's posts by author needs a restricted permission.
 */
export class LinkedInConnector implements PlatformConnector {
  readonly platform = 'linkedin' as const;
  private readonly http: PlatformHttp;

  constructor(private readonly ctx: ConnectorContext) {
    this.http = new PlatformHttp(mapLinkedInError, ctx.retry);
  }

  async publish(account: ConnectorAccount, request: PublishRequest): Promise<PublishOutcome> {
    const text = textWithMediaLinks(request.content, request.mediaUrls);
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
      const urn = response.headers.get('x-restli-id') ?? stringAt(response.body, '$URN');
      if (!urn) throw unreadablePublishAnswer('comment URN');
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
      const urn = stringAt(comment, '$URN') ?? stringAt(comment, 'id');
      if (!urn) throw malformedAnswer('comment URN');
      const time = Number(at(comment, 'created', 'time'));
      return {
        platformCommentId: urn,
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
    return { ...bearer(account), 'LinkedIn-Version': LINKEDIN_API_VERSION, 'X-Restli-Protocol-Version': '2.0.0' };
  }
}

function authorUrn(account: ConnectorAccount): string {
  const id = platformUserIdOf(account);
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

/** LinkedIn errors: {"status": 422, "serviceErrorCode": 100, "code": "ACCESS_DENIED", "message": "..."}. */
export function mapLinkedInError(response: PlatformResponse): PlatformError {
  const label = stringAt(response.body, 'code');
  return {
    code: response.status === 429 ? 'rate_limited' : label ? snakeCase(label) : codeForStatus(response.status),
    message: stringAt(response.body, 'message') ?? `LinkedIn answered HTTP ${response.status}`,
    retryable: isTransientStatus(response.status),
  };
}

import type { CommentTarget, ConnectorAccount, PlatformComment, PlatformConnector, PlatformError, PublishOutcome, PublishRequest } from '../connector';
import { bareHandle } from '../connector';
import { checkText, firstRefusal, requireText, TextRule } from '../content/content-rules';
import { textWithMediaLinks } from '../content/media';
import { xWeightedLength } from '../content/text-length';
import { codeForStatus, isTransientStatus, PlatformCallFailed, PlatformHttp, PlatformResponse } from '../http/platform-http';
import { failed, malformedAnswer, published, toOutcome, unreadablePublishAnswer } from '../outcome';
import { arrayAt, at, bearer, comparableText, ConnectorContext, snakeCase, stringAt } from './connector-context';

/**
 * X takes 280 weighted characters ("Counting characters", https://docs.x.com/fundamentals/counting-characters):
 * every link 23 (bare domains too), an emoji 2 whatever its code points, CJK 2.
 */
export const X_TEXT: TextRule = { field: 'text', max: 280, measure: xWeightedLength, unit: 'weighted characters' };

/**
 * X API v2. Posts and replies: `POST /2/tweets` (`reply.in_reply_to_tweet_id` for a reply).
 * Comments: recent search on `conversation_id:`. Reconciliation: the user's recent posts
 * (`GET /2/users/:id/tweets`, by identity.platformAccountId, the numeric user id).
 */
export class XConnector implements PlatformConnector {
  readonly platform = 'x' as const;
  private readonly http: PlatformHttp;

  constructor(private readonly ctx: ConnectorContext) {
    this.http = new PlatformHttp(mapXError, ctx.retry);
  }

  async publish(account: ConnectorAccount, request: PublishRequest): Promise<PublishOutcome> {
    const text = textWithMediaLinks(request.content, request.media.map((m) => m.url));
    const refusal = firstRefusal(requireText(text), checkText(text, X_TEXT));
    if (refusal) return failed(refusal);
    return toOutcome(() => this.createPost(account, { text }));
  }

  async comment(account: ConnectorAccount, target: CommentTarget, text: string): Promise<PublishOutcome> {
    const refusal = firstRefusal(requireText(text), checkText(text, X_TEXT));
    if (refusal) return failed(refusal);
    const parentId = target.kind === 'post' ? target.platformPostId : target.platformCommentId;
    return toOutcome(() => this.createPost(account, { text, reply: { in_reply_to_tweet_id: parentId } }));
  }

  async findPublished(account: ConnectorAccount, request: PublishRequest): Promise<{ platformPostId: string; url: string } | null> {
    const userId = account.identity.platformAccountId;
    const response = await this.http.send({
      method: 'GET',
      url: `${this.ctx.baseUrl}/2/users/${encodeURIComponent(userId)}/tweets?max_results=20`,
      headers: bearer(account),
    });
    // X reports a lookup it could not make (an unknown user id) as `errors` without `data`.
    const problem = at(response.body, 'errors', 0);
    if (problem && !at(response.body, 'data')) {
      throw new PlatformCallFailed({ code: snakeCase(stringAt(problem, 'type')?.split('/').pop() ?? 'lookup_failed'), message: stringAt(problem, 'detail') ?? 'X could not look the posts up', retryable: false });
    }
    const wanted = comparableText(textWithMediaLinks(request.content, request.media.map((m) => m.url)));
    const match = arrayAt(response.body, 'data').find((post) => comparableText(stringAt(post, 'text') ?? '') === wanted);
    const id = stringAt(match, 'id');
    return id ? { platformPostId: id, url: postUrl(account, id) } : null;
  }

  async listComments(account: ConnectorAccount, platformPostId: string): Promise<PlatformComment[]> {
    const query = new URLSearchParams({
      query: `conversation_id:${platformPostId}`,
      'tweet.fields': 'created_at,author_id,referenced_tweets',
      expansions: 'author_id',
      'user.fields': 'username',
      max_results: '100',
    });
    const response = await this.http.send({ method: 'GET', url: `${this.ctx.baseUrl}/2/tweets/search/recent?${query}`, headers: bearer(account) });
    const usernames = new Map(arrayAt(response.body, 'includes', 'users').map((user) => [stringAt(user, 'id'), stringAt(user, 'username')]));
    return arrayAt(response.body, 'data')
      .map((post): PlatformComment => {
        const id = stringAt(post, 'id');
        if (!id) throw malformedAnswer('id on a post');
        const author = usernames.get(stringAt(post, 'author_id')) ?? stringAt(post, 'author_id') ?? 'unknown';
        const repliedTo = arrayAt(post, 'referenced_tweets').find((ref) => stringAt(ref, 'type') === 'replied_to');
        const parent = stringAt(repliedTo, 'id') ?? platformPostId;
        return {
          platformCommentId: id,
          author,
          text: stringAt(post, 'text') ?? '',
          createdAt: stringAt(post, 'created_at') ?? '',
          url: `https://x.com/${author}/status/${id}`,
          parentPlatformPostId: platformPostId,
          inReplyToCommentId: parent === platformPostId ? null : parent,
        };
      })
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  private async createPost(account: ConnectorAccount, body: object): Promise<PublishOutcome> {
    const response = await this.http.send({ method: 'POST', url: `${this.ctx.baseUrl}/2/tweets`, headers: bearer(account), json: body, irreversible: true });
    const id = stringAt(response.body, 'data', 'id');
    if (!id) throw unreadablePublishAnswer('data.id');
    return published(id, postUrl(account, id));
  }
}

function postUrl(account: ConnectorAccount, id: string): string {
  return `https://x.com/${bareHandle(account)}/status/${id}`;
}

/**
 * X answers errors as RFC 7807 problems ({title, detail, type, status}) or, for some
 * limits, a legacy {errors: [{code, message}]} list. The problem type's last path segment
 * is the most specific code (usage-capped, duplicate content has type about:blank and a detail).
 */
export function mapXError(response: PlatformResponse): PlatformError {
  const body = response.body;
  const detail = stringAt(body, 'detail') ?? stringAt(body, 'errors', 0, 'message') ?? stringAt(body, 'title');
  const type = stringAt(body, 'type');
  let code = type && type !== 'about:blank' ? snakeCase(type.split('/').pop() ?? '') : codeForStatus(response.status);
  if (/duplicate content/i.test(detail ?? '')) code = 'duplicate_content';
  if (response.status === 429) code = 'rate_limited';
  // X answers an unknown, expired and revoked token alike (401 "Unauthorized"), so a
  // refused token is "invalid": a refresh may bring it back, else the user signs in again.
  if (response.status === 401) code = 'access_token_invalid';
  return {
    code,
    message: detail ?? `X answered HTTP ${response.status}`,
    retryable: isTransientStatus(response.status) && at(body, 'type') !== 'https://api.twitter.com/2/problems/usage-capped',
  };
}

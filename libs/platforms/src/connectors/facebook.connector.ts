import type { CommentTarget, ConnectorAccount, PlatformComment, PlatformConnector, PublishOutcome, PublishRequest } from '../connector';
import { checkText, firstRefusal, requireText, TextRule } from '../content/content-rules';
import { codePointLength } from '../content/text-length';
import type { PlatformHttp } from '../http/platform-http';
import { failed, malformedAnswer, published, toOutcome, unreadablePublishAnswer } from '../outcome';
import { arrayAt, bearer, comparableText, ConnectorContext, stringAt } from './connector-context';
import { GRAPH_API_VERSION, graphHttp } from './meta-graph';

/** A Facebook post's message takes up to 63,206 characters. */
export const FACEBOOK_TEXT: TextRule = { field: 'message', max: 63_206, measure: codePointLength, unit: 'characters' };

/**
 * Facebook Pages through the Graph API: `POST /{page-id}/feed` (message, and the first media
 * url as the link), comments and replies `POST /{object-id}/comments`, comments read from
 * `GET /{post-id}/comments?filter=stream`, reconciliation on `GET /{page-id}/feed`.
 * identity.platformAccountId is the page id; the access token a page token.
 */
export class FacebookConnector implements PlatformConnector {
  readonly platform = 'facebook' as const;
  private readonly http: PlatformHttp;
  private readonly graph: string;

  constructor(ctx: ConnectorContext) {
    this.http = graphHttp(ctx.retry);
    this.graph = `${ctx.baseUrl}/${GRAPH_API_VERSION}`;
  }

  async publish(account: ConnectorAccount, request: PublishRequest): Promise<PublishOutcome> {
    const link = request.media.map((m) => m.url)[0];
    const refusal = firstRefusal(link ? null : requireText(request.content), checkText(request.content, FACEBOOK_TEXT));
    if (refusal) return failed(refusal);
    const form: Record<string, string> = { message: request.content };
    if (link) form.link = link;
    return toOutcome(async () => {
      const id = await this.create(account, `${this.graph}/${encodeURIComponent(account.identity.platformAccountId)}/feed`, form);
      return published(id, postUrl(id));
    });
  }

  async comment(account: ConnectorAccount, target: CommentTarget, text: string): Promise<PublishOutcome> {
    const refusal = firstRefusal(requireText(text), checkText(text, FACEBOOK_TEXT));
    if (refusal) return failed(refusal);
    const objectId = target.kind === 'post' ? target.platformPostId : target.platformCommentId;
    return toOutcome(async () => {
      const id = await this.create(account, `${this.graph}/${encodeURIComponent(objectId)}/comments`, { message: text });
      return published(id, commentUrl(target.platformPostId, id));
    });
  }

  async findPublished(account: ConnectorAccount, request: PublishRequest): Promise<{ platformPostId: string; url: string } | null> {
    const response = await this.http.send({
      method: 'GET',
      url: `${this.graph}/${encodeURIComponent(account.identity.platformAccountId)}/feed?fields=id,message,permalink_url&limit=25`,
      headers: bearer(account),
    });
    const wanted = comparableText(request.content);
    const match = arrayAt(response.body, 'data').find((post) => comparableText(stringAt(post, 'message') ?? '') === wanted);
    const id = stringAt(match, 'id');
    return id ? { platformPostId: id, url: stringAt(match, 'permalink_url') ?? postUrl(id) } : null;
  }

  async listComments(account: ConnectorAccount, platformPostId: string): Promise<PlatformComment[]> {
    const fields = 'id,message,created_time,from,permalink_url,parent{id}';
    const response = await this.http.send({
      method: 'GET',
      url: `${this.graph}/${encodeURIComponent(platformPostId)}/comments?filter=stream&order=chronological&limit=100&fields=${encodeURIComponent(fields)}`,
      headers: bearer(account),
    });
    return arrayAt(response.body, 'data').map((comment): PlatformComment => {
      const id = stringAt(comment, 'id');
      if (!id) throw malformedAnswer('id on a comment');
      return {
        platformCommentId: id,
        author: stringAt(comment, 'from', 'name') ?? 'unknown',
        text: stringAt(comment, 'message') ?? '',
        createdAt: stringAt(comment, 'created_time') ?? '',
        url: stringAt(comment, 'permalink_url') ?? commentUrl(platformPostId, id),
        parentPlatformPostId: platformPostId,
        inReplyToCommentId: stringAt(comment, 'parent', 'id') ?? null,
      };
    });
  }

  private async create(account: ConnectorAccount, url: string, form: Record<string, string>): Promise<string> {
    const response = await this.http.send({ method: 'POST', url, headers: bearer(account), form, irreversible: true });
    const id = stringAt(response.body, 'id');
    if (!id) throw unreadablePublishAnswer('id');
    return id;
  }
}

/** Page post ids are "{page-id}_{post-id}". */
function postUrl(id: string): string {
  const [pageId, postId] = id.split('_');
  return postId ? `https://www.facebook.com/${pageId}/posts/${postId}` : `https://www.facebook.com/${id}`;
}

function commentUrl(postId: string, commentId: string): string {
  return `${postUrl(postId)}?comment_id=${encodeURIComponent(commentId)}`;
}

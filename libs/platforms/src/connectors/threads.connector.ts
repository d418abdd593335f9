import type { CommentTarget, ConnectorAccount, PlatformComment, PlatformConnector, PublishOutcome, PublishRequest } from '../connector';
import { bareHandle } from '../connector';
import { checkText, firstRefusal, requireText, TextRule, unsupportedMedia } from '../content/content-rules';
import { isVideoUrl } from '../content/media';
import { threadsLength } from '../content/text-length';
import type { PlatformHttp } from '../http/platform-http';
import { failed, malformedAnswer, published, toOutcome, unreadablePublishAnswer } from '../outcome';
import { arrayAt, bearer, comparableText, ConnectorContext, stringAt } from './connector-context';
import { graphHttp, permalinkOr, THREADS_API_VERSION, waitForContainer } from './meta-graph';

/**
 * Threads posts take 500 characters, an emoji (the whole sequence) counting as its UTF-8
 * bytes ("Threads Posts", Limitations: https://developers.facebook.com/documentation/threads/posts);
 * a carousel up to 20 items.
 */
export const THREADS_TEXT: TextRule = { field: 'text', max: 500, measure: threadsLength, unit: 'characters (emoji counted as UTF-8 bytes)' };
export const THREADS_CAROUSEL_MAX = 20;

/**
 * Threads API: a media container (`POST /{threads-user-id}/threads`, media_type TEXT, IMAGE,
 * VIDEO or CAROUSEL), then `POST /{threads-user-id}/threads_publish` — the irreversible call.
 * A reply is the same two steps with `reply_to_id`. Comments: `GET /{media-id}/conversation`.
 * identity.platformAccountId is the Threads user id.
 */
export class ThreadsConnector implements PlatformConnector {
  readonly platform = 'threads' as const;
  private readonly http: PlatformHttp;
  private readonly api: string;

  constructor(ctx: ConnectorContext) {
    this.http = graphHttp(ctx.retry);
    this.api = `${ctx.baseUrl}/${THREADS_API_VERSION}`;
  }

  async publish(account: ConnectorAccount, request: PublishRequest): Promise<PublishOutcome> {
    const refusal = firstRefusal(
      request.media.map((m) => m.url).length === 0 ? requireText(request.content) : null,
      checkText(request.content, THREADS_TEXT),
      request.media.map((m) => m.url).length > THREADS_CAROUSEL_MAX ? unsupportedMedia(`a carousel takes at most ${THREADS_CAROUSEL_MAX} items`) : null,
    );
    if (refusal) return failed(refusal);
    return toOutcome(async () => this.publishContainer(account, await this.prepareContainer(account, request)));
  }

  async comment(account: ConnectorAccount, target: CommentTarget, text: string): Promise<PublishOutcome> {
    const refusal = firstRefusal(requireText(text), checkText(text, THREADS_TEXT));
    if (refusal) return failed(refusal);
    const replyTo = target.kind === 'post' ? target.platformPostId : target.platformCommentId;
    return toOutcome(async () => {
      const containerId = await this.createContainer(account, { media_type: 'TEXT', text, reply_to_id: replyTo }, false);
      return this.publishContainer(account, containerId);
    });
  }

  async findPublished(account: ConnectorAccount, request: PublishRequest): Promise<{ platformPostId: string; url: string } | null> {
    const response = await this.http.send({ method: 'GET', url: `${this.userBase(account)}/threads?fields=id,text,permalink&limit=25`, headers: bearer(account) });
    const wanted = comparableText(request.content);
    const match = arrayAt(response.body, 'data').find((post) => comparableText(stringAt(post, 'text') ?? '') === wanted);
    const id = stringAt(match, 'id');
    return id ? { platformPostId: id, url: stringAt(match, 'permalink') ?? profileUrl(account) } : null;
  }

  async listComments(account: ConnectorAccount, platformPostId: string): Promise<PlatformComment[]> {
    const fields = 'id,text,username,timestamp,permalink,replied_to';
    const response = await this.http.send({
      method: 'GET',
      url: `${this.api}/${encodeURIComponent(platformPostId)}/conversation?reverse=false&fields=${encodeURIComponent(fields)}`,
      headers: bearer(account),
    });
    return arrayAt(response.body, 'data').map((reply): PlatformComment => {
      const id = stringAt(reply, 'id');
      if (!id) throw malformedAnswer('id on a reply');
      const parent = stringAt(reply, 'replied_to', 'id') ?? platformPostId;
      return {
        platformCommentId: id,
        author: stringAt(reply, 'username') ?? 'unknown',
        text: stringAt(reply, 'text') ?? '',
        createdAt: stringAt(reply, 'timestamp') ?? '',
        url: stringAt(reply, 'permalink') ?? null,
        parentPlatformPostId: platformPostId,
        inReplyToCommentId: parent === platformPostId ? null : parent,
      };
    });
  }

  private userBase(account: ConnectorAccount): string {
    return `${this.api}/${encodeURIComponent(account.identity.platformAccountId)}`;
  }

  private async prepareContainer(account: ConnectorAccount, request: PublishRequest): Promise<string> {
    const text = request.content;
    if (request.media.map((m) => m.url).length === 0) return this.createContainer(account, { media_type: 'TEXT', text }, false);
    if (request.media.map((m) => m.url).length === 1) return this.createContainer(account, { ...mediaParams(request.media.map((m) => m.url)[0]), text }, isVideoUrl(request.media.map((m) => m.url)[0]));
    const children: string[] = [];
    for (const url of request.media.map((m) => m.url)) {
      children.push(await this.createContainer(account, { ...mediaParams(url), is_carousel_item: 'true' }, isVideoUrl(url)));
    }
    return this.createContainer(account, { media_type: 'CAROUSEL', children: children.join(','), text }, false);
  }

  private async createContainer(account: ConnectorAccount, form: Record<string, string>, needsProcessing: boolean): Promise<string> {
    const response = await this.http.send({ method: 'POST', url: `${this.userBase(account)}/threads`, headers: bearer(account), form });
    const id = stringAt(response.body, 'id');
    if (!id) throw malformedAnswer('container id');
    if (needsProcessing) await waitForContainer(this.http, this.api, account, id);
    return id;
  }

  private async publishContainer(account: ConnectorAccount, containerId: string): Promise<PublishOutcome> {
    const response = await this.http.send({
      method: 'POST',
      url: `${this.userBase(account)}/threads_publish`,
      headers: bearer(account),
      form: { creation_id: containerId },
      irreversible: true,
    });
    const id = stringAt(response.body, 'id');
    if (!id) throw unreadablePublishAnswer('id');
    return published(id, await permalinkOr(this.http, this.api, account, id, profileUrl(account)));
  }
}

function mediaParams(url: string): Record<string, string> {
  return isVideoUrl(url) ? { media_type: 'VIDEO', video_url: url } : { media_type: 'IMAGE', image_url: url };
}

function profileUrl(account: ConnectorAccount): string {
  return `https://www.threads.net/@${bareHandle(account)}`;
}

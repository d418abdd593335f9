import type { CommentTarget, ConnectorAccount, PlatformComment, PlatformConnector, PublishOutcome, PublishRequest } from '../connector';
import { bareHandle } from '../connector';
import { checkText, firstRefusal, requireMedia, requireText, TextRule, unsupportedMedia } from '../content/content-rules';
import { isVideoUrl } from '../content/media';
import { codePointLength, hashtagCount, mentionCount } from '../content/text-length';
import type { PlatformHttp } from '../http/platform-http';
import { failed, malformedAnswer, published, toOutcome, unreadablePublishAnswer } from '../outcome';
import { arrayAt, bearer, comparableText, ConnectorContext, stringAt } from './connector-context';
import { GRAPH_API_VERSION, graphHttp, permalinkOr, waitForContainer } from './meta-graph';

/**
 * Instagram captions take 2,200 characters, 30 hashtags and 20 @ tags (IG User Media, `caption`:
 * https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media);
 * a carousel up to 10 items.
 */
export const INSTAGRAM_CAPTION: TextRule = { field: 'caption', max: 2_200, measure: codePointLength, unit: 'characters' };
export const INSTAGRAM_HASHTAGS: TextRule = { field: 'caption', max: 30, measure: hashtagCount, unit: 'hashtags' };
export const INSTAGRAM_MENTIONS: TextRule = { field: 'caption', max: 20, measure: mentionCount, unit: '@ tags' };
export const INSTAGRAM_CAROUSEL_MAX = 10;

/**
 * Instagram Graph API content publishing: a container (`POST /{ig-user-id}/media`; one per
 * item plus a CAROUSEL container for several), then `POST /{ig-user-id}/media_publish` —
 * the irreversible call. Media is required. Comments `POST /{ig-media-id}/comments`,
 * replies `POST /{ig-comment-id}/replies`. identity.platformAccountId is the ig-user-id.
 */
export class InstagramConnector implements PlatformConnector {
  readonly platform = 'instagram' as const;
  private readonly http: PlatformHttp;
  private readonly graph: string;

  constructor(ctx: ConnectorContext) {
    this.http = graphHttp(ctx.retry);
    this.graph = `${ctx.baseUrl}/${GRAPH_API_VERSION}`;
  }

  async publish(account: ConnectorAccount, request: PublishRequest): Promise<PublishOutcome> {
    const refusal = firstRefusal(
      requireMedia(request.media.map((m) => m.url), 'photos and videos'),
      checkText(request.content, INSTAGRAM_CAPTION, INSTAGRAM_HASHTAGS, INSTAGRAM_MENTIONS),
      request.media.map((m) => m.url).length > INSTAGRAM_CAROUSEL_MAX ? unsupportedMedia(`a carousel takes at most ${INSTAGRAM_CAROUSEL_MAX} items`) : null,
    );
    if (refusal) return failed(refusal);
    return toOutcome(async () => {
      const containerId = await this.prepareContainer(account, request);
      const response = await this.http.send({
        method: 'POST',
        url: `${this.userBase(account)}/media_publish`,
        headers: bearer(account),
        form: { creation_id: containerId },
        irreversible: true,
      });
      const mediaId = stringAt(response.body, 'id');
      if (!mediaId) throw unreadablePublishAnswer('id');
      return published(mediaId, await this.permalink(account, mediaId));
    });
  }

  async comment(account: ConnectorAccount, target: CommentTarget, text: string): Promise<PublishOutcome> {
    const refusal = firstRefusal(requireText(text), checkText(text, INSTAGRAM_CAPTION));
    if (refusal) return failed(refusal);
    const url =
      target.kind === 'post'
        ? `${this.graph}/${encodeURIComponent(target.platformPostId)}/comments`
        : `${this.graph}/${encodeURIComponent(target.platformCommentId)}/replies`;
    return toOutcome(async () => {
      const response = await this.http.send({ method: 'POST', url, headers: bearer(account), form: { message: text }, irreversible: true });
      const id = stringAt(response.body, 'id');
      if (!id) throw unreadablePublishAnswer('id');
      // Instagram comments have no permalink of their own: point at the post.
      return published(id, await this.permalink(account, target.platformPostId));
    });
  }

  async findPublished(account: ConnectorAccount, request: PublishRequest): Promise<{ platformPostId: string; url: string } | null> {
    const response = await this.http.send({ method: 'GET', url: `${this.userBase(account)}/media?fields=id,caption,permalink&limit=25`, headers: bearer(account) });
    const wanted = comparableText(request.content);
    const match = arrayAt(response.body, 'data').find((media) => comparableText(stringAt(media, 'caption') ?? '') === wanted);
    const id = stringAt(match, 'id');
    return id ? { platformPostId: id, url: stringAt(match, 'permalink') ?? profileUrl(account) } : null;
  }

  async listComments(account: ConnectorAccount, platformPostId: string): Promise<PlatformComment[]> {
    const fields = 'id,text,username,timestamp,replies{id,text,username,timestamp}';
    const response = await this.http.send({
      method: 'GET',
      url: `${this.graph}/${encodeURIComponent(platformPostId)}/comments?fields=${encodeURIComponent(fields)}`,
      headers: bearer(account),
    });
    const toComment = (comment: unknown, parentCommentId: string | null): PlatformComment => {
      const id = stringAt(comment, 'id');
      if (!id) throw malformedAnswer('id on a comment');
      return {
        platformCommentId: id,
        author: stringAt(comment, 'username') ?? 'unknown',
        text: stringAt(comment, 'text') ?? '',
        createdAt: stringAt(comment, 'timestamp') ?? '',
        url: null,
        parentPlatformPostId: platformPostId,
        inReplyToCommentId: parentCommentId,
      };
    };
    return arrayAt(response.body, 'data').flatMap((comment) => {
      const top = toComment(comment, null);
      return [top, ...arrayAt(comment, 'replies', 'data').map((reply) => toComment(reply, top.platformCommentId))];
    });
  }

  private userBase(account: ConnectorAccount): string {
    return `${this.graph}/${encodeURIComponent(account.identity.platformAccountId)}`;
  }

  /** One container for a single item, or item containers plus a CAROUSEL container; waits for video processing. */
  private async prepareContainer(account: ConnectorAccount, request: PublishRequest): Promise<string> {
    if (request.media.map((m) => m.url).length === 1) {
      const [url] = request.media.map((m) => m.url);
      const media: Record<string, string> = isVideoUrl(url) ? { media_type: 'REELS', video_url: url } : { image_url: url };
      return this.createContainer(account, { ...media, caption: request.content }, isVideoUrl(url));
    }
    const children: string[] = [];
    for (const url of request.media.map((m) => m.url)) {
      const media: Record<string, string> = isVideoUrl(url) ? { media_type: 'VIDEO', video_url: url } : { image_url: url };
      children.push(await this.createContainer(account, { ...media, is_carousel_item: 'true' }, isVideoUrl(url)));
    }
    return this.createContainer(account, { media_type: 'CAROUSEL', children: children.join(','), caption: request.content }, false);
  }

  private async createContainer(account: ConnectorAccount, form: Record<string, string>, needsProcessing: boolean): Promise<string> {
    const response = await this.http.send({ method: 'POST', url: `${this.userBase(account)}/media`, headers: bearer(account), form });
    const id = stringAt(response.body, 'id');
    if (!id) throw malformedAnswer('container id');
    if (needsProcessing) await waitForContainer(this.http, this.graph, account, id);
    return id;
  }

  private permalink(account: ConnectorAccount, mediaId: string): Promise<string> {
    return permalinkOr(this.http, this.graph, account, mediaId, profileUrl(account));
  }
}

function profileUrl(account: ConnectorAccount): string {
  return `https://www.instagram.com/${bareHandle(account)}/`;
}

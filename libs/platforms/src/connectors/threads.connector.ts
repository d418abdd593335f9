import type { MediaFetcher, MediaFile, MediaRef } from '@app/media';
import type { AccountMetricsReading, ItemMetricsReading } from '@app/contracts';
import { countOf, itemMetrics, readingMetrics } from './metrics-reading';
import type { CommentRef, CommentTarget, ConnectorAccount, PlatformComment, PlatformConnector, PublishedLookup, PublishOutcome, PublishRequest } from '../connector';
import { bareHandle } from '../connector';
import { checkText, firstRefusal, requireText, TextRule } from '../content/content-rules';
import { GIB, MIB, PlatformMediaRules, withCheckedMedia } from '../content/media-rules';
import { threadsLength } from '../content/text-length';
import type { PlatformHttp } from '../http/platform-http';
import { failed, malformedAnswer, published, toOutcome, unreadablePublishAnswer } from '../outcome';
import { arrayAt, bearer, ConnectorContext, stringAt } from './connector-context';
import { ContainerEdge, ContainerItem, createContainer, findInMediaListing, graphDeleted, graphHttp, graphInsightValues, graphSucceeded, permalinkOr, prepareMediaContainer, THREADS_API_VERSION } from './meta-graph';
import { optionsOf, ThreadsOptions } from '../options/platform-options';
import { limitRefusal, PublishLimits } from '../content/publish-limit-rules';

/**
 * Threads posts take 500 characters, an emoji (the whole sequence) counting as its UTF-8
 * bytes ("Threads Posts", Limitations: https://developers.facebook.com/documentation/threads/posts).
 */
export const THREADS_TEXT: TextRule = { field: 'text', max: 500, measure: threadsLength, unit: 'characters (emoji counted as UTF-8 bytes)' };


/**
 * Threads' media rules: a carousel of up to 20 images and videos ("Carousel Posts",
 * https://developers.facebook.com/docs/threads/posts#carousel-posts), and the Media
 * Specifications of the Threads overview (https://developers.facebook.com/docs/threads/overview):
 * - images: JPEG or PNG, 8 MB at most, aspect ratio limit 10:1;
 * - videos: MOV or MP4, at most 5 minutes and 1 GB, aspect ratio 0.01:1 to 10:1;
 * - alt text (`alt_text`) on images and videos ("Accessibility",
 *   https://developers.facebook.com/documentation/threads/posts/accessibility), which names
 *   no maximum; we hold it to 1,000 characters.
 * Threads fetches the urls itself; we fetch them too, so these checks run before any call.
 */
export const THREADS_MEDIA: PlatformMediaRules = {
  maxItems: 20,
  image: { types: ['image/jpeg', 'image/png'], maxBytes: 8 * MIB, minAspectRatio: 1 / 10, maxAspectRatio: 10 },
  video: { types: ['video/mp4', 'video/quicktime'], maxBytes: GIB, maxSeconds: 5 * 60, minAspectRatio: 0.01, maxAspectRatio: 10 },
  maxAltText: 1_000,
};


/** What Threads refuses before any request (publish-limit-rules.ts). */
export const THREADS_LIMITS: PublishLimits = { name: 'Threads', text: [THREADS_TEXT], media: THREADS_MEDIA, trims: false };

/**
 * Threads API: a media container (`POST /{threads-user-id}/threads`, media_type TEXT, IMAGE,
 * VIDEO or CAROUSEL; media containers waited for until FINISHED), then
 * `POST /{threads-user-id}/threads_publish` — the irreversible call. Threads pulls media by url.
 * A reply is the same two steps with `reply_to_id`. Comments: `GET /{media-id}/conversation`.
 * identity.platformAccountId is the Threads user id.
 */
export class ThreadsConnector implements PlatformConnector {
  readonly platform = 'threads' as const;
  private readonly http: PlatformHttp;
  private readonly api: string;
  private readonly media: MediaFetcher;

  constructor(ctx: ConnectorContext) {
    this.http = graphHttp(ctx.retry);
    this.media = ctx.media;
    this.api = `${ctx.baseUrl}/${THREADS_API_VERSION}`;
  }

  async publish(account: ConnectorAccount, request: PublishRequest): Promise<PublishOutcome> {
    const refusal = limitRefusal(THREADS_LIMITS, request);
    if (refusal) return failed(refusal);
    const text = request.content;
    // reply_control on the post's container ("Reply Management", https://developers.facebook.com/docs/threads/reply-management); absent, everyone.
    const { reply_control } = optionsOf<ThreadsOptions>(request);
    // A thread part replies to the part before it: reply_to_id on its container, media or not ("Publishing",
    // https://developers.facebook.com/documentation/threads/reference/publishing).
    const replyFields: Record<string, string> = { ...(reply_control ? { reply_control } : {}), ...(request.replyTo ? { reply_to_id: request.replyTo } : {}) };
    if (request.media.length === 0) {
      return toOutcome(async () => this.publishContainer(account, await createContainer(this.containers(account), account, { media_type: 'TEXT', text, ...replyFields })));
    }
    return toOutcome(() =>
      withCheckedMedia(this.media, request.media, THREADS_MEDIA, 'Threads', async (files) => {
        const items = files.map((file, index) => containerItem(file, request.media[index]));
        const postFields: Record<string, string> = { ...(text.trim() === '' ? {} : { text }), ...replyFields };
        return this.publishContainer(account, await prepareMediaContainer(this.containers(account), account, items, postFields));
      }),
    );
  }

  async comment(account: ConnectorAccount, target: CommentTarget, text: string): Promise<PublishOutcome> {
    const refusal = firstRefusal(requireText(text), checkText(text, THREADS_TEXT));
    if (refusal) return failed(refusal);
    const replyTo = target.kind === 'post' ? target.platformPostId : target.platformCommentId;
    return toOutcome(async () => {
      const containerId = await createContainer(this.containers(account), account, { media_type: 'TEXT', text, reply_to_id: replyTo });
      return this.publishContainer(account, containerId);
    });
  }

  /** The user's media since the attempt started, matched by findInWindow (see findInMediaListing). */
  async findPublished(account: ConnectorAccount, request: PublishedLookup): Promise<{ platformPostId: string; url: string } | null> {
    return findInMediaListing({ http: this.http, listUrl: `${this.userBase(account)}/threads`, textField: 'text', platformName: 'Threads', fallbackUrl: profileUrl(account) }, account, request);
  }

  /**
   * `POST /{threads-reply-id}/manage_reply` with `hide` (Reply Management, "Hide Replies",
   * https://developers.facebook.com/docs/threads/reply-management; threads_manage_replies):
   * top-level replies only, and their nested replies go with them. Answers {"success": true}.
   */
  async setCommentHidden(account: ConnectorAccount, comment: CommentRef, hidden: boolean): Promise<void> {
    await graphSucceeded(this.http, { method: 'POST', url: `${this.api}/${encodeURIComponent(comment.platformCommentId)}/manage_reply`, account, form: { hide: String(hidden) } });
  }

  /**
   * `DELETE /{threads-media-id}` (Delete Posts, https://developers.facebook.com/docs/threads/posts/delete-posts;
   * threads_delete): the user's own posts and replies. Answers {"success": true, "deleted_id"}.
   */
  /**
   * Threads media insights (https://developers.facebook.com/docs/threads/insights#media-insights; threads_manage_insights):
   * views (impressions), likes, replies (comments), reposts (shares); quotes and shares (sends) kept raw. No reach,
   * saves, clicks or video views per post: null.
   */
  async fetchItemMetrics(account: ConnectorAccount, platformPostId: string): Promise<ItemMetricsReading> {
    const response = await readingMetrics(
      () => this.http.send({ method: 'GET', url: `${this.api}/${encodeURIComponent(platformPostId)}/insights?metric=views,likes,replies,reposts,quotes,shares`, headers: bearer(account) }),
      ['permission_denied'],
      ['threads_basic', 'threads_manage_insights'],
    );
    const raw = graphInsightValues(response.body);
    return { metrics: itemMetrics({ impressions: raw.views, likes: raw.likes, comments: raw.replies, shares: raw.reposts }), raw };
  }

  /** User insights' followers_count, a total (https://developers.facebook.com/docs/threads/insights#user-insights; threads_manage_insights). */
  async fetchAccountMetrics(account: ConnectorAccount): Promise<AccountMetricsReading> {
    const response = await readingMetrics(
      () => this.http.send({ method: 'GET', url: `${this.api}/${encodeURIComponent(account.identity.platformAccountId)}/threads_insights?metric=followers_count`, headers: bearer(account) }),
      ['permission_denied'],
      ['threads_basic', 'threads_manage_insights'],
    );
    const raw = graphInsightValues(response.body);
    return { followers: countOf(raw.followers_count), raw };
  }

  async deleteComment(account: ConnectorAccount, comment: CommentRef): Promise<void> {
    await graphDeleted(this.http, `${this.api}/${encodeURIComponent(comment.platformCommentId)}`, account);
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
        // The conversation names a reply's author by `username` only.
        authorPlatformId: null,
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

  private containers(account: ConnectorAccount): ContainerEdge {
    return { http: this.http, versionedBase: this.api, createUrl: `${this.userBase(account)}/threads`, status: { code: 'status', detail: 'error_message' } };
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

/** A fetched item as a Threads container takes it: IMAGE or VIDEO by url, with its alt text; videos are processed before they can be used. */
function containerItem(file: MediaFile, ref: MediaRef): ContainerItem {
  const alt: Record<string, string> = ref.altText ? { alt_text: ref.altText } : {};
  if (file.kind === 'video') return { fields: { media_type: 'VIDEO', video_url: file.url, ...alt }, processed: true };
  return { fields: { media_type: 'IMAGE', image_url: file.url, ...alt }, processed: false };
}

function profileUrl(account: ConnectorAccount): string {
  return `https://www.threads.net/@${bareHandle(account)}`;
}

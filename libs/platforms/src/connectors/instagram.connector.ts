import type { MediaFetcher, MediaFile, MediaRef } from '@app/media';
import type { AccountMetricsReading, ItemMetricsReading } from '@app/contracts';
import { countOf, itemMetrics, readingMetrics } from './metrics-reading';
import type { CommentRef, CommentTarget, ConnectorAccount, PlatformComment, PlatformConnector, PublishedLookup, PublishOutcome, PublishRequest } from '../connector';
import { bareHandle } from '../connector';
import { checkText, firstRefusal, requireText, TextRule } from '../content/content-rules';
import { MIB, PlatformMediaRules, withCheckedMedia } from '../content/media-rules';
import { codePointLength, hashtagCount, mentionCount } from '../content/text-length';
import type { PlatformHttp } from '../http/platform-http';
import { failed, malformedAnswer, published, toOutcome, unreadablePublishAnswer } from '../outcome';
import { arrayAt, at, bearer, ConnectorContext, stringAt } from './connector-context';
import { MetaPlacement, metaPlacementShape } from '../options/meta-placement';
import { InstagramOptions, optionsOf } from '../options/platform-options';
import { ContainerEdge, ContainerItem, findInMediaListing, GRAPH_API_VERSION, graphDeleted, graphInsightValues, graphHttp, graphSucceeded, permalinkOr, prepareMediaContainer } from './meta-graph';
import { limitRefusal, PublishLimits } from '../content/publish-limit-rules';

/**
 * Instagram captions take 2,200 characters, 30 hashtags and 20 @ tags (IG User Media, `caption`:
 * https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media).
 */
export const INSTAGRAM_CAPTION: TextRule = { field: 'caption', max: 2_200, measure: codePointLength, unit: 'characters' };
export const INSTAGRAM_HASHTAGS: TextRule = { field: 'caption', max: 30, measure: hashtagCount, unit: 'hashtags' };
export const INSTAGRAM_MENTIONS: TextRule = { field: 'caption', max: 20, measure: mentionCount, unit: '@ tags' };


/**
 * Instagram's media rules, from IG User Media (see above) and the Content Publishing guide
 * (https://developers.facebook.com/docs/instagram-platform/content-publishing):
 * - a carousel takes up to 10 images and videos;
 * - images: JPEG only, 8 MB at most ("It should be less than 8 MiB", Error Codes page),
 *   aspect ratio within 4:5 to 1.91:1;
 * - video (the Reels specifications; a carousel's videos are held to the same rule): MOV or
 *   MP4, 3 s to 15 min, 300 MB at most, aspect ratio 0.01:1 to 10:1;
 * - alt text (`alt_text`, added March 24, 2025) on image posts only: "Reels and stories are
 *   not supported", so a video's alt text is dropped. The reference names no maximum; we
 *   hold it to 1,000 characters.
 * Instagram fetches the urls itself; we fetch them too, so these checks run before any call.
 */
export const INSTAGRAM_MEDIA: PlatformMediaRules = {
  maxItems: 10,
  image: { types: ['image/jpeg'], maxBytes: 8 * MIB, minAspectRatio: 4 / 5, maxAspectRatio: 1.91 },
  video: { types: ['video/mp4', 'video/quicktime'], maxBytes: 300 * MIB, minSeconds: 3, maxSeconds: 15 * 60, minAspectRatio: 0.01, maxAspectRatio: 10 },
  maxAltText: 1_000,
};

/** A reel (IG User Media, `media_type=REELS`): one video under the Reels specifications above. */
export const INSTAGRAM_REEL_MEDIA: PlatformMediaRules = { maxItems: 1, video: INSTAGRAM_MEDIA.video };

/**
 * A story (IG User Media, `media_type=STORIES`; story image and video specifications): one JPEG
 * image of at most 8 MB (9:16 recommended, any ratio taken), or one MOV or MP4 video of 3 to 60
 * seconds and at most 100 MB. Stories take no caption and no alt text.
 */
export const INSTAGRAM_STORY_MEDIA: PlatformMediaRules = {
  maxItems: 1,
  image: { types: ['image/jpeg'], maxBytes: 8 * MIB },
  video: { types: ['video/mp4', 'video/quicktime'], maxBytes: 100 * MIB, minSeconds: 3, maxSeconds: 60 },
};


/** What Instagram refuses before any request (publish-limit-rules.ts), a reel's or a story's one media item included. */
export const INSTAGRAM_LIMITS: PublishLimits = {
  name: 'Instagram',
  text: [INSTAGRAM_CAPTION, INSTAGRAM_HASHTAGS, INSTAGRAM_MENTIONS],
  media: INSTAGRAM_MEDIA,
  mediaOnly: 'photos and videos',
  trims: false,
  shapedBy: metaPlacementShape('Instagram'),
};

/**
 * Instagram Graph API content publishing: a container (`POST /{ig-user-id}/media`; one per
 * item plus a CAROUSEL container for several), each waited for until FINISHED, then
 * `POST /{ig-user-id}/media_publish` — the irreversible call. Media is required; Instagram
 * pulls it by url (image_url / video_url). Comments `POST /{ig-media-id}/comments`,
 * replies `POST /{ig-comment-id}/replies`. identity.platformAccountId is the ig-user-id.
 */
export class InstagramConnector implements PlatformConnector {
  readonly platform = 'instagram' as const;
  private readonly http: PlatformHttp;
  private readonly graph: string;
  private readonly media: MediaFetcher;

  constructor(ctx: ConnectorContext) {
    this.http = graphHttp(ctx.retry);
    this.media = ctx.media;
    this.graph = `${ctx.baseUrl}/${GRAPH_API_VERSION}`;
  }

  async publish(account: ConnectorAccount, request: PublishRequest): Promise<PublishOutcome> {
    const refusal = limitRefusal(INSTAGRAM_LIMITS, request);
    if (refusal) return failed(refusal);
    const { placement = 'feed' } = optionsOf<InstagramOptions>(request);
    return toOutcome(() =>
      withCheckedMedia(this.media, request.media, PLACEMENT_MEDIA[placement], 'Instagram', async (files) => {
        const items = placement === 'feed' ? files.map((file, index) => containerItem(file, request.media[index], files.length > 1)) : [placementItem(files[0], placement)];
        // A story shows no caption: none is sent.
        const containerId = await prepareMediaContainer(this.containers(account), account, items, placement === 'story' ? {} : { caption: request.content });
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
      }),
    );
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

  /** The user's media since the attempt started, matched by findInWindow (see findInMediaListing). */
  async findPublished(account: ConnectorAccount, request: PublishedLookup): Promise<{ platformPostId: string; url: string } | null> {
    return findInMediaListing({ http: this.http, listUrl: `${this.userBase(account)}/media`, textField: 'caption', platformName: 'Instagram', fallbackUrl: profileUrl(account) }, account, request);
  }

  /**
   * `POST /{ig-comment-id}` with `hide` (IG Comment reference, "Updating",
   * https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-comment/;
   * instagram_manage_comments): hides a comment on the account's media from everyone but its
   * author. Answers {"success": true}.
   */
  async setCommentHidden(account: ConnectorAccount, comment: CommentRef, hidden: boolean): Promise<void> {
    await graphSucceeded(this.http, { method: 'POST', url: `${this.graph}/${encodeURIComponent(comment.platformCommentId)}`, account, form: { hide: String(hidden) } });
  }

  /** `DELETE /{ig-comment-id}` (IG Comment reference, "Deleting"): answers {"success": true}. */
  /**
   * "Instagram Media Insights" (https://developers.facebook.com/docs/instagram-platform/reference/instagram-media/insights;
   * instagram_manage_insights): views (times the media was played or displayed: impressions, which Instagram
   * deprecated in its favour), reach, likes, comments, shares, saved. No clicks; `views` covers video plays too,
   * so videoViews stays null rather than repeat it. A metric Instagram has no data for is left out: null.
   */
  async fetchItemMetrics(account: ConnectorAccount, platformPostId: string): Promise<ItemMetricsReading> {
    const response = await readingMetrics(
      () => this.http.send({ method: 'GET', url: `${this.graph}/${encodeURIComponent(platformPostId)}/insights?metric=views,reach,likes,comments,shares,saved`, headers: bearer(account) }),
      ['permission_denied'],
      ['instagram_basic', 'instagram_manage_insights', 'pages_read_engagement'],
    );
    const raw = graphInsightValues(response.body);
    return { metrics: itemMetrics({ impressions: raw.views, reach: raw.reach, likes: raw.likes, comments: raw.comments, shares: raw.shares, saves: raw.saved }), raw };
  }

  /** The IG User's followers_count ("IG User", https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user). */
  async fetchAccountMetrics(account: ConnectorAccount): Promise<AccountMetricsReading> {
    const response = await readingMetrics(
      () => this.http.send({ method: 'GET', url: `${this.graph}/${encodeURIComponent(account.identity.platformAccountId)}?fields=followers_count`, headers: bearer(account) }),
      ['permission_denied'],
      ['instagram_basic', 'pages_read_engagement'],
    );
    const raw = { followers_count: at(response.body, 'followers_count') };
    return { followers: countOf(raw.followers_count), raw };
  }

  async deleteComment(account: ConnectorAccount, comment: CommentRef): Promise<void> {
    await graphDeleted(this.http, `${this.graph}/${encodeURIComponent(comment.platformCommentId)}`, account);
  }

  async listComments(account: ConnectorAccount, platformPostId: string): Promise<PlatformComment[]> {
    // `from` {id, username}: the creator's IG id (https://developers.facebook.com/docs/graph-api/changelog/ooc-changes/oct-20-2021).
    const fields = 'id,text,username,from,timestamp,replies{id,text,username,from,timestamp}';
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
        authorPlatformId: stringAt(comment, 'from', 'id') ?? null,
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

  private containers(account: ConnectorAccount): ContainerEdge {
    return { http: this.http, versionedBase: this.graph, createUrl: `${this.userBase(account)}/media`, status: { code: 'status_code', detail: 'status' } };
  }

  private permalink(account: ConnectorAccount, mediaId: string): Promise<string> {
    return permalinkOr(this.http, this.graph, account, mediaId, profileUrl(account));
  }
}

function profileUrl(account: ConnectorAccount): string {
  return `https://www.instagram.com/${bareHandle(account)}/`;
}

/**
 * A fetched item as Instagram's container takes it: an image by `image_url` (with its alt
 * text), a video as REELS on its own or VIDEO inside a carousel ("Reels cannot appear in
 * carousels"; IG User Media, media_type). Videos are processed before they can be used.
 */
function containerItem(file: MediaFile, ref: MediaRef, inCarousel: boolean): ContainerItem {
  if (file.kind === 'video') return { fields: { media_type: inCarousel ? 'VIDEO' : 'REELS', video_url: file.url }, processed: true };
  return { fields: { image_url: file.url, ...(ref.altText ? { alt_text: ref.altText } : {}) }, processed: false };
}

const PLACEMENT_MEDIA: Record<MetaPlacement, PlatformMediaRules> = { feed: INSTAGRAM_MEDIA, reel: INSTAGRAM_REEL_MEDIA, story: INSTAGRAM_STORY_MEDIA };

/**
 * A reel's or a story's one container (IG User Media): a reel as `media_type=REELS` with
 * `share_to_feed=false` ("the reel can only appear in the Reels tab"; a single video posted to the
 * feed is a REELS container shared to the feed as well, containerItem); a story as
 * `media_type=STORIES` with its `image_url` or `video_url`.
 */
function placementItem(file: MediaFile, placement: Exclude<MetaPlacement, 'feed'>): ContainerItem {
  if (placement === 'reel') return { fields: { media_type: 'REELS', video_url: file.url, share_to_feed: 'false' }, processed: true };
  const video = file.kind === 'video';
  return { fields: { media_type: 'STORIES', ...(video ? { video_url: file.url } : { image_url: file.url }) }, processed: video };
}

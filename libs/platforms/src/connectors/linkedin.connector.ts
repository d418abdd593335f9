import type { MediaFile, MediaRef } from '@app/media';
import type { AccountMetricsReading, ItemMetricsReading } from '@app/contracts';
import { countOf, itemMetrics, metricsItemNotFound, rawObject, readingMetrics } from './metrics-reading';
import type { CommentRef, CommentTarget, ConnectorAccount, PlatformComment, PlatformConnector, PlatformError, PublishedLookup, PublishOutcome, PublishRequest } from '../connector';
import { checkText, firstRefusal, requireText, TextRule, unsupportedMedia } from '../content/content-rules';
import { MIB, PlatformMediaRules, withCheckedMedia } from '../content/media-rules';
import { codePointLength } from '../content/text-length';
import { codeForStatus, isTransientStatus, PlatformCallFailed, PlatformHttp, PlatformResponse } from '../http/platform-http';
import { failed, malformedAnswer, published, toOutcome, unreadablePublishAnswer } from '../outcome';
import { arrayAt, at, bearer, ConnectorContext, snakeCase, stringAt } from './connector-context';
import { ProcessingState, waitUntilProcessed } from './media-upload';
import { findInWindow, platformTimeMs, PublishedCandidate } from './published-lookup';
import { commentActionNotSupported } from './unsupported';
import { LinkedInOptions, optionsOf } from '../options/platform-options';
import { limitRefusal, PublishLimits } from '../content/publish-limit-rules';

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
 * What a LinkedIn post carries, under https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/:
 * - images through the Images API (images-api): JPG, GIF and PNG, under 36,152,320 pixels
 *   (LINKEDIN_MAX_IMAGE_PIXELS). The API documents no byte limit; 5 MB, the limit publishing
 *   tools give for LinkedIn images (https://www.ayrshare.com/docs/media-guidelines/linkedin), bounds the fetch;
 * - one to twenty images: one in `content.media`, 2 to 20 in `content.multiImage`
 *   (multiimage-post-api), each with its `altText` (posts-api: at most 4,086 characters);
 * - one video through the Videos API (videos-api, "Video File Size Specifications"): MP4, 75 KB
 *   to 500 MB, 3 seconds to 30 minutes, alone in `content.media`. A video has no alt text field
 *   (`title` is a title, and LinkedIn shows no alt text on videos), so a video's alt text is dropped.
 * A GIF is kept alone too (the shared animatedAlone rule): a multiImage lists still images.
 */
export const LINKEDIN_MEDIA: PlatformMediaRules = {
  maxItems: 20,
  image: { types: ['image/jpeg', 'image/png'], maxBytes: 5 * MIB },
  gif: { types: ['image/gif'], maxBytes: 5 * MIB },
  video: { types: ['video/mp4'], maxBytes: 500 * MIB, minSeconds: 3, maxSeconds: 30 * 60 },
  animatedAlone: true,
  maxAltText: 4_086,
};
export const LINKEDIN_MAX_IMAGE_PIXELS = 36_152_320;
export const LINKEDIN_MIN_VIDEO_BYTES = 75 * 1024;
/** Posts read per page when looking one up (the Posts API's count; it allows up to 100). */
const LOOKUP_PAGE_SIZE = 50;
/** How long a video may take to become AVAILABLE before the attempt gives up (media_processing_timeout). */
export const LINKEDIN_VIDEO_PROCESSING_LIMIT_MS = 10 * 60_000;


/** What LinkedIn refuses before any request (publish-limit-rules.ts). */
export const LINKEDIN_LIMITS: PublishLimits = { name: 'LinkedIn', text: [LINKEDIN_COMMENTARY], media: LINKEDIN_MEDIA, trims: true };

/**
 * LinkedIn Posts API: `POST /rest/posts` (the new post's URN comes back in the
 * `x-restli-id` header), comments `POST /rest/socialActions/{urn}/comments` (a reply names
 * its parentComment), read from `GET /rest/socialActions/{urn}/comments`. Every call sends
 * `LinkedIn-Version` and `X-Restli-Protocol-Version: 2.0.0`. identity.platformAccountId is
 * the author URN (urn:li:person:... or urn:li:organization:...); a bare id means a person.
 * Reconciliation: the author's posts (Posts API, "Find Posts by Authors").
 * Media is uploaded first (Images / Videos API: initialize, PUT the bytes, and for a video
 * finalize and wait until AVAILABLE), then the post names the URNs; uploads are safe to repeat,
 * an unattached image or video is never shown.
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
    const text = request.content.trim();
    const refusal = limitRefusal(LINKEDIN_LIMITS, request);
    if (refusal) return failed(refusal);
    // The Post schema's visibility (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api); absent, PUBLIC.
    const { visibility = 'PUBLIC' } = optionsOf<LinkedInOptions>(request);
    if (request.media.length === 0) return toOutcome(() => this.createPost(account, text, null, visibility));
    return toOutcome(() =>
      withCheckedMedia(this.ctx.media, request.media, LINKEDIN_MEDIA, 'LinkedIn', async (files) => {
        const fileRefusal = linkedInFileRefusal(files);
        if (fileRefusal) throw new PlatformCallFailed(fileRefusal);
        return this.createPost(account, text, await this.uploadContent(account, files, request.media), visibility);
      }),
    );
  }

  /** The one irreversible call: the post, with the uploaded media's URNs in `content` when there are any. */
  private async createPost(account: ConnectorAccount, text: string, content: Record<string, unknown> | null, visibility: string): Promise<PublishOutcome> {
    const response = await this.http.send({
      method: 'POST',
      url: `${this.ctx.baseUrl}/rest/posts`,
      headers: this.headers(account),
      json: {
        author: authorUrn(account),
        commentary: escapeLittleText(text),
        visibility,
        distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
        ...(content ? { content } : {}),
        lifecycleState: 'PUBLISHED',
        isReshareDisabledByAuthor: false,
      },
      irreversible: true,
    });
    const urn = response.headers.get('x-restli-id');
    if (!urn) throw unreadablePublishAnswer('x-restli-id header');
    return published(urn, postUrl(urn));
  }

  /**
   * Uploads the files and answers the post's `content` (Posts API): `media` {id, altText} for one
   * image or the video, `multiImage` {images: [{id, altText}]} for 2 to 20 images (MultiImage API).
   */
  private async uploadContent(account: ConnectorAccount, files: MediaFile[], media: readonly MediaRef[]): Promise<Record<string, unknown>> {
    if (files[0].kind === 'video') return { media: { id: await this.uploadVideo(account, files[0]) } };
    const images: Array<{ id: string; altText?: string }> = [];
    for (const [index, file] of files.entries()) {
      const altText = media[index].altText;
      images.push({ id: await this.uploadImage(account, file), ...(altText ? { altText } : {}) });
    }
    return images.length === 1 ? { media: images[0] } : { multiImage: { images } };
  }

  /**
   * Images API (images-api, "Upload an Image"): POST /rest/images?action=initializeUpload with the
   * owner answers {value: {uploadUrl, image}}; the bytes are PUT to uploadUrl with the member's
   * token, streamed from the spooled file. The image URN is what the post names.
   */
  private async uploadImage(account: ConnectorAccount, file: MediaFile): Promise<string> {
    const init = await this.http.send({
      method: 'POST',
      url: `${this.ctx.baseUrl}/rest/images?action=initializeUpload`,
      headers: this.headers(account),
      json: { initializeUploadRequest: { owner: authorUrn(account) } },
    });
    const uploadUrl = stringAt(init.body, 'value', 'uploadUrl');
    const image = stringAt(init.body, 'value', 'image');
    if (!uploadUrl || !image) throw malformedAnswer('value.uploadUrl and value.image');
    await this.http.send({ method: 'PUT', url: uploadUrl, headers: bearer(account), raw: { body: await file.blob(), contentType: 'application/octet-stream' } });
    return image;
  }

  /**
   * Videos API (videos-api, "Upload a Video"): initializeUpload with fileSizeBytes answers
   * {value: {video, uploadToken, uploadInstructions: [{uploadUrl, firstByte, lastByte}]}}
   * (parts of 4 MB); each part is PUT to its pre-signed uploadUrl (no token) as a slice of the
   * file-backed Blob, so only the part in flight is read; its ETag names it in
   * finalizeUpload's uploadedPartIds, in order. Then GET /rest/videos/{urn} until AVAILABLE.
   */
  private async uploadVideo(account: ConnectorAccount, file: MediaFile): Promise<string> {
    const init = await this.http.send({
      method: 'POST',
      url: `${this.ctx.baseUrl}/rest/videos?action=initializeUpload`,
      headers: this.headers(account),
      json: { initializeUploadRequest: { owner: authorUrn(account), fileSizeBytes: file.size, uploadCaptions: false, uploadThumbnail: false } },
    });
    const video = stringAt(init.body, 'value', 'video');
    const parts = uploadParts(arrayAt(init.body, 'value', 'uploadInstructions'), file.size);
    if (!video || !parts) throw malformedAnswer('value.video and uploadInstructions covering the file');
    const blob = await file.blob();
    const uploadedPartIds: string[] = [];
    for (const part of parts) {
      const response = await this.http.send({ method: 'PUT', url: part.uploadUrl, raw: { body: blob.slice(part.firstByte, part.lastByte + 1), contentType: 'application/octet-stream' } });
      const etag = response.headers.get('etag');
      if (!etag) throw malformedAnswer('ETag header on an uploaded video part');
      uploadedPartIds.push(etag);
    }
    await this.http.send({
      method: 'POST',
      url: `${this.ctx.baseUrl}/rest/videos?action=finalizeUpload`,
      headers: this.headers(account),
      json: { finalizeUploadRequest: { video, uploadToken: stringAt(init.body, 'value', 'uploadToken') ?? '', uploadedPartIds } },
    });
    await this.waitUntilAvailable(account, video);
    return video;
  }

  /**
   * Reads GET /rest/videos/{urn} (videos-api, "Get a Video": status WAITING_UPLOAD, PROCESSING,
   * AVAILABLE or PROCESSING_FAILED with its processingFailureReason) with the shared bounded
   * wait until AVAILABLE: a post may only name an available video. Bounded by LINKEDIN_VIDEO_PROCESSING_LIMIT_MS.
   */
  private async waitUntilAvailable(account: ConnectorAccount, video: string): Promise<void> {
    const read = async (): Promise<ProcessingState> => {
      const response = await this.http.send({ method: 'GET', url: `${this.ctx.baseUrl}/rest/videos/${encodeURIComponent(video)}`, headers: this.headers(account) });
      const status = stringAt(response.body, 'status');
      if (status === 'AVAILABLE') return { state: 'ready' };
      if (status === 'PROCESSING_FAILED') return { state: 'failed', message: stringAt(response.body, 'processingFailureReason') ?? 'no reason given' };
      return { state: 'processing' };
    };
    await waitUntilProcessed(this.ctx.retry, `the LinkedIn video ${video}`, { state: 'processing' }, read, LINKEDIN_VIDEO_PROCESSING_LIMIT_MS);
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

  /**
   * Posts API "Find Posts by Authors" (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api#find-posts-by-authors):
   * `GET /rest/posts?q=author&author={urn}&sortBy=CREATED` (the X-RestLi-Method FINDER), newest first, paged
   * by `start`/`count`; each post has its URN `id`, `commentary` (little text), `createdAt` (epoch ms) and
   * `content` (`media` for one image or video, `multiImage.images` for several). Matched by findInWindow.
   * Needs a permission to read the author's posts (r_member_social for a member, r_organization_social
   * for an organization); refused, the lookup fails and the post ends as outcome_unknown.
   */
  async findPublished(account: ConnectorAccount, request: PublishedLookup): Promise<{ platformPostId: string; url: string } | null> {
    return findInWindow(request, 'LinkedIn', async (cursor) => {
      const start = Number(cursor ?? 0);
      const query = new URLSearchParams({ q: 'author', author: authorUrn(account), sortBy: 'CREATED', start: String(start), count: String(LOOKUP_PAGE_SIZE) });
      const response = await this.http.send({ method: 'GET', url: `${this.ctx.baseUrl}/rest/posts?${query}`, headers: { ...this.headers(account), 'X-RestLi-Method': 'FINDER' } });
      const elements = arrayAt(response.body, 'elements');
      const candidates = elements.map((post): PublishedCandidate => {
        const urn = stringAt(post, 'id');
        if (!urn) throw malformedAnswer('id on a post');
        const media = at(post, 'content', 'media') ? 1 : arrayAt(post, 'content', 'multiImage', 'images').length;
        return { platformPostId: urn, url: postUrl(urn), text: unescapeLittleText(stringAt(post, 'commentary') ?? ''), createdAtMs: platformTimeMs(at(post, 'createdAt'), 'milliseconds'), mediaCount: media };
      });
      return { candidates, next: elements.length < LOOKUP_PAGE_SIZE ? null : String(start + LOOKUP_PAGE_SIZE) };
    });
  }

  async setCommentHidden(): Promise<void> {
    throw commentActionNotSupported('LinkedIn', 'hiding comments');
  }

  /**
   * Comments API "Delete a Comment" (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/comments-api):
   * `DELETE /rest/socialActions/{post URN}/comments/{comment id}?actor={author URN}`, the comment's
   * number under its post (the last part of its URN) and the author it was written as
   * (w_member_social or w_organization_social). Answers 204; 404 once the comment is gone, which is
   * taken as deleted (see PlatformConnector.deleteComment).
   */
  /**
   * An organization's post: "Organization Share Statistics", lifetime totals for that post
   * (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/organizations/share-statistics;
   * rw_organization_admin): impressionCount, uniqueImpressionsCount (reach), clickCount, likeCount, commentCount,
   * shareCount. A member's post: "Member Post Statistics", one call per metric type with aggregation TOTAL
   * (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/members/post-statistics;
   * r_member_postAnalytics): IMPRESSION, MEMBERS_REACHED, REACTION, COMMENT, RESHARE; no clicks for members.
   * LinkedIn gives neither saves nor video views here: null.
   */
  async fetchItemMetrics(account: ConnectorAccount, platformPostId: string): Promise<ItemMetricsReading> {
    const author = account.identity.platformAccountId;
    if (isOrganization(author)) {
      const list = platformPostId.startsWith('urn:li:ugcPost:') ? 'ugcPosts' : 'shares';
      const query = `q=organizationalEntity&organizationalEntity=${encodeURIComponent(author)}&${list}=List(${encodeURIComponent(platformPostId)})`;
      const response = await readingMetrics(
        () => this.http.send({ method: 'GET', url: `${this.ctx.baseUrl}/rest/organizationalEntityShareStatistics?${query}`, headers: this.headers(account) }),
        ['access_denied'],
        ['rw_organization_admin'],
      );
      const element = arrayAt(response.body, 'elements').find((candidate) => stringAt(candidate, list === 'shares' ? 'share' : 'ugcPost') === platformPostId);
      if (element === undefined) throw metricsItemNotFound(platformPostId);
      const raw = rawObject(at(element, 'totalShareStatistics'), 'totalShareStatistics');
      return {
        metrics: itemMetrics({ impressions: raw.impressionCount, reach: raw.uniqueImpressionsCount, clicks: raw.clickCount, likes: raw.likeCount, comments: raw.commentCount, shares: raw.shareCount }),
        raw,
      };
    }
    const entity = `(${platformPostId.startsWith('urn:li:ugcPost:') ? 'ugc' : 'share'}:${encodeURIComponent(platformPostId)})`;
    const types = ['IMPRESSION', 'MEMBERS_REACHED', 'REACTION', 'COMMENT', 'RESHARE'] as const;
    const counts = await Promise.all(
      types.map(async (queryType) => {
        const response = await readingMetrics(
          () => this.http.send({ method: 'GET', url: `${this.ctx.baseUrl}/rest/memberCreatorPostAnalytics?q=entity&entity=${entity}&queryType=${queryType}&aggregation=TOTAL`, headers: this.headers(account) }),
          ['access_denied'],
          ['r_member_postAnalytics'],
        );
        return [queryType, at(response.body, 'elements', 0, 'count')] as const;
      }),
    );
    const raw: Record<string, unknown> = Object.fromEntries(counts);
    return { metrics: itemMetrics({ impressions: raw.IMPRESSION, reach: raw.MEMBERS_REACHED, likes: raw.REACTION, comments: raw.COMMENT, shares: raw.RESHARE }), raw };
  }

  /**
   * An organization's followers: "Retrieve Organization Follower Count", firstDegreeSize
   * (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/organizations/organization-lookup-api#retrieve-organization-follower-count);
   * a member's: "Member Follower Statistics", memberFollowersCount
   * (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/members/follower-statistics; r_member_profileAnalytics).
   */
  async fetchAccountMetrics(account: ConnectorAccount): Promise<AccountMetricsReading> {
    const author = account.identity.platformAccountId;
    if (isOrganization(author)) {
      const response = await readingMetrics(
        () => this.http.send({ method: 'GET', url: `${this.ctx.baseUrl}/rest/networkSizes/${encodeURIComponent(author)}?edgeType=COMPANY_FOLLOWED_BY_COMPANY`, headers: this.headers(account) }),
        ['access_denied'],
        ['rw_organization_admin'],
      );
      const raw = { firstDegreeSize: at(response.body, 'firstDegreeSize') };
      return { followers: countOf(raw.firstDegreeSize), raw };
    }
    const response = await readingMetrics(
      () => this.http.send({ method: 'GET', url: `${this.ctx.baseUrl}/rest/memberFollowersCount?q=me`, headers: this.headers(account) }),
      ['access_denied'],
      ['r_member_profileAnalytics'],
    );
    const raw = { memberFollowersCount: at(response.body, 'elements', 0, 'memberFollowersCount') };
    return { followers: countOf(raw.memberFollowersCount), raw };
  }

  async deleteComment(account: ConnectorAccount, comment: CommentRef): Promise<void> {
    const commentNumber = /,(\d+)\)$/.exec(comment.platformCommentId)?.[1];
    if (!commentNumber) throw new PlatformCallFailed({ code: 'invalid_comment_id', message: `${comment.platformCommentId} is not a LinkedIn comment URN`, retryable: false });
    const query = new URLSearchParams({ actor: authorUrn(account) });
    await this.http.send({
      method: 'DELETE',
      url: `${this.ctx.baseUrl}/rest/socialActions/${encodeURIComponent(comment.platformPostId)}/comments/${commentNumber}?${query}`,
      headers: this.headers(account),
      answers: [404],
    });
  }

  /**
   * Comments API "Get Comments on Shares" answers the post's top-level comments; the replies under
   * one are "Get Comments on Comments", the same call on the comment's URN. Those with replies
   * (commentsSummary.aggregatedTotalComments) are read in turn, so every reply names its comment.
   */
  async listComments(account: ConnectorAccount, platformPostId: string): Promise<PlatformComment[]> {
    const topLevel = await this.commentsOn(account, platformPostId, platformPostId);
    const replies: typeof topLevel = [];
    for (const { comment, repliedTo } of topLevel) {
      if (repliedTo > 0) replies.push(...(await this.commentsOn(account, comment.platformCommentId, platformPostId)));
    }
    return [...topLevel, ...replies].map(({ comment }) => comment).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /** The comments directly on `target` (a post or a comment URN), each with how many replies it has. */
  private async commentsOn(account: ConnectorAccount, target: string, platformPostId: string): Promise<Array<{ comment: PlatformComment; repliedTo: number }>> {
    const response = await this.http.send({
      method: 'GET',
      url: `${this.ctx.baseUrl}/rest/socialActions/${encodeURIComponent(target)}/comments`,
      headers: this.headers(account),
    });
    return arrayAt(response.body, 'elements').map((comment) => ({ comment: toPlatformComment(comment, platformPostId), repliedTo: Number(at(comment, 'commentsSummary', 'aggregatedTotalComments') ?? 0) }));
  }

  private headers(account: ConnectorAccount): Record<string, string> {
    return { ...bearer(account), 'LinkedIn-Version': this.version, 'X-Restli-Protocol-Version': '2.0.0' };
  }
}

/** What LinkedIn documents beyond the shared rules: an image's pixel count, a video's smallest size. */
function linkedInFileRefusal(files: readonly MediaFile[]): PlatformError | null {
  for (const [index, file] of files.entries()) {
    const label = `media item ${index + 1} (${file.contentType})`;
    if (file.kind !== 'video' && file.width && file.height && file.width * file.height >= LINKEDIN_MAX_IMAGE_PIXELS) {
      return { code: 'media_too_large', message: `${label} has ${file.width}×${file.height} pixels; LinkedIn takes images under ${LINKEDIN_MAX_IMAGE_PIXELS} pixels`, retryable: false };
    }
    if (file.kind === 'video' && file.size < LINKEDIN_MIN_VIDEO_BYTES) {
      return unsupportedMedia(`${label} has ${file.size} bytes; LinkedIn takes videos of ${LINKEDIN_MIN_VIDEO_BYTES} bytes (75 KB) or more`);
    }
  }
  return null;
}

interface UploadPart {
  uploadUrl: string;
  firstByte: number;
  lastByte: number;
}

/** The upload instructions, checked to cover the file's bytes in order without a gap; null when they do not. */
function uploadParts(instructions: unknown[], size: number): UploadPart[] | null {
  const parts: UploadPart[] = [];
  let next = 0;
  for (const instruction of instructions) {
    const uploadUrl = stringAt(instruction, 'uploadUrl');
    const firstByte = at(instruction, 'firstByte');
    const lastByte = at(instruction, 'lastByte');
    if (!uploadUrl || firstByte !== next || typeof lastByte !== 'number' || lastByte < firstByte || lastByte >= size) return null;
    parts.push({ uploadUrl, firstByte, lastByte });
    next = lastByte + 1;
  }
  return parts.length > 0 && next === size ? parts : null;
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

/** The text a little-text commentary shows: escapeLittleText undone. */
function unescapeLittleText(text: string): string {
  return text.replace(/\\([\\|{}@[\]()<>#*_~])/g, '$1');
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

/** One element of a Comments API answer, as a comment under `platformPostId`. */
function toPlatformComment(comment: unknown, platformPostId: string): PlatformComment {
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
    authorPlatformId: stringAt(comment, 'actor') ?? null,
    text: stringAt(comment, 'message', 'text') ?? '',
    createdAt: Number.isFinite(time) ? new Date(time).toISOString() : '',
    url: null,
    parentPlatformPostId: platformPostId,
    inReplyToCommentId: stringAt(comment, 'parentComment') ?? null,
  };
}

/** Whether the account is an organization (its URN), whose numbers LinkedIn reports apart from a member's. */
function isOrganization(platformAccountId: string): boolean {
  return platformAccountId.startsWith('urn:li:organization:');
}

import type { MediaFile, MediaRef } from '@app/media';
import type { AccountMetricsReading, ItemMetricsReading } from '@app/contracts';
import { countOf, itemMetrics, metricsItemNotFound, rawObject, readingMetrics } from './metrics-reading';
import type { CommentRef, CommentTarget, ConnectorAccount, PlatformComment, PlatformConnector, PlatformError, PublishedLookup, PublishOutcome, PublishRequest } from '../connector';
import { bareHandle } from '../connector';
import { checkText, firstRefusal, requireText, TextRule } from '../content/content-rules';
import { GIB, MIB, PlatformMediaRules, withCheckedMedia } from '../content/media-rules';
import { xWeightedLength } from '../content/text-length';
import { optionsOf, XOptions } from '../options/platform-options';
import { codeForStatus, isTransientStatus, PlatformCallFailed, PlatformHttp, PlatformResponse } from '../http/platform-http';
import { failed, malformedAnswer, published, toOutcome, unreadablePublishAnswer } from '../outcome';
import { arrayAt, at, bearer, ConnectorContext, snakeCase, stringAt } from './connector-context';
import { findInWindow, platformTimeMs, PublishedCandidate, windowStartMs } from './published-lookup';
import { ProcessingState, uploadAll, uploadFileName, waitUntilProcessed } from './media-upload';
import { limitRefusal, PublishLimits } from '../content/publish-limit-rules';

/**
 * X takes 280 weighted characters ("Counting characters", https://docs.x.com/fundamentals/counting-characters):
 * every link 23 (bare domains too), an emoji 2 whatever its code points, CJK 2.
 */
export const X_TEXT: TextRule = { field: 'text', max: 280, measure: xWeightedLength, unit: 'weighted characters' };


/**
 * X's media rules for a Post ("Best practices", https://docs.x.com/x-api/media/quickstart/best-practices,
 * limits of a default account, not X Premium): up to 4 photos, 1 animated GIF or 1 video; images
 * 5 MB, animated GIFs 15 MB, a Post's video 8 GB lasting 0.5 s to 20 minutes with an aspect ratio
 * between 1:3 and 3:1. Videos as MP4 or MOV (H.264, as the page recommends; WebM, which "Initialize media
 * upload" also names, is left out). Alt text: at most 1,000
 * characters ("Create Media metadata", https://docs.x.com/x-api/media/create-media-metadata).
 */
export const X_MEDIA: PlatformMediaRules = {
  maxItems: 4,
  image: { types: ['image/jpeg', 'image/png', 'image/webp'], maxBytes: 5 * MIB },
  gif: { types: ['image/gif'], maxBytes: 15 * MIB },
  video: { types: ['video/mp4', 'video/quicktime'], maxBytes: 8 * GIB, minSeconds: 0.5, maxSeconds: 20 * 60, minAspectRatio: 1 / 3, maxAspectRatio: 3 },
  animatedAlone: true,
  maxAltText: 1_000,
};

/** One APPEND segment: under the 5 MB a segment may carry ("POST media/upload (APPEND)"), one in memory at a time. */
const APPEND_CHUNK_BYTES = 4 * MIB;


/** What X refuses before any request (publish-limit-rules.ts). */
export const X_LIMITS: PublishLimits = { name: 'X', text: [X_TEXT], media: X_MEDIA, trims: true };

/**
 * X API v2. Posts and replies: `POST /2/tweets` (`reply.in_reply_to_tweet_id` for a reply),
 * media attached by `media.media_ids` after uploading each item (images in one request,
 * animated GIFs and videos in chunks, then waiting for X to process them).
 * Comments: recent search on `conversation_id:`. Reconciliation: the user's posts since the
 * attempt started (`GET /2/users/:id/tweets`, by identity.platformAccountId, the numeric user id).
 */
export class XConnector implements PlatformConnector {
  readonly platform = 'x' as const;
  private readonly http: PlatformHttp;

  constructor(private readonly ctx: ConnectorContext) {
    this.http = new PlatformHttp(mapXError, ctx.retry);
  }

  async publish(account: ConnectorAccount, request: PublishRequest): Promise<PublishOutcome> {
    const text = request.content.trim();
    // A Post needs text or media ("Create Post", https://docs.x.com/x-api/posts/create-post): media alone is a Post.
    const refusal = limitRefusal(X_LIMITS, request);
    if (refusal) return failed(refusal);
    // reply_settings: who may reply ("Create or Edit Post", https://docs.x.com/x-api/posts/create-or-edit-post); absent, everyone.
    const { reply_settings } = optionsOf<XOptions>(request);
    // A thread part replies to the part before it: reply.in_reply_to_tweet_id ("Create Post", https://docs.x.com/x-api/posts/create-post).
    const reply = request.replyTo ? { reply: { in_reply_to_tweet_id: request.replyTo } } : {};
    const textPart = { ...(text === '' ? {} : { text }), ...(reply_settings ? { reply_settings } : {}), ...reply };
    if (request.media.length === 0) return toOutcome(() => this.createPost(account, textPart));
    return toOutcome(() =>
      withCheckedMedia(this.ctx.media, request.media, X_MEDIA, 'X', async (files) => {
        const mediaIds = await uploadAll(files, (file, index) => this.uploadMedia(account, file, request.media[index]));
        return this.createPost(account, { ...textPart, media: { media_ids: mediaIds } });
      }),
    );
  }

  async comment(account: ConnectorAccount, target: CommentTarget, text: string): Promise<PublishOutcome> {
    const refusal = firstRefusal(requireText(text), checkText(text, X_TEXT));
    if (refusal) return failed(refusal);
    const parentId = target.kind === 'post' ? target.platformPostId : target.platformCommentId;
    return toOutcome(() => this.createPost(account, { text, reply: { in_reply_to_tweet_id: parentId } }));
  }

  /**
   * The user's Posts timeline ("Get Posts by User", https://docs.x.com/x-api/posts/get-posts-by-user):
   * `GET /2/users/:id/tweets` by the numeric user id, `start_time` at the window's start (X filters
   * by creation), with `created_at` and `attachments` (the media_keys tell the media count), newest
   * first, 100 a page, `pagination_token` from meta.next_token. Matched by findInWindow.
   */
  async findPublished(account: ConnectorAccount, request: PublishedLookup): Promise<{ platformPostId: string; url: string } | null> {
    const userId = account.identity.platformAccountId;
    // X takes start_time to the second (YYYY-MM-DDTHH:mm:ssZ).
    const startTime = new Date(Math.floor(windowStartMs(request) / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    return findInWindow(request, 'X', async (cursor) => {
      const query = new URLSearchParams({ max_results: '100', start_time: startTime, 'tweet.fields': 'created_at,attachments', ...(cursor ? { pagination_token: cursor } : {}) });
      const response = await this.http.send({ method: 'GET', url: `${this.ctx.baseUrl}/2/users/${encodeURIComponent(userId)}/tweets?${query}`, headers: bearer(account) });
      // X reports a lookup it could not make (an unknown user id) as `errors` without `data` or `meta`.
      const problem = at(response.body, 'errors', 0);
      if (problem && !at(response.body, 'data') && !at(response.body, 'meta')) {
        throw new PlatformCallFailed({ code: snakeCase(stringAt(problem, 'type')?.split('/').pop() ?? 'lookup_failed'), message: stringAt(problem, 'detail') ?? 'X could not look the posts up', retryable: false });
      }
      const candidates = arrayAt(response.body, 'data').map((post): PublishedCandidate => {
        const id = stringAt(post, 'id');
        if (!id) throw malformedAnswer('id on a post');
        return { platformPostId: id, url: postUrl(account, id), text: stringAt(post, 'text') ?? '', createdAtMs: platformTimeMs(at(post, 'created_at')), mediaCount: arrayAt(post, 'attachments', 'media_keys').length };
      });
      return { candidates, next: stringAt(response.body, 'meta', 'next_token') ?? null };
    });
  }

  /**
   * `PUT /2/tweets/:id/hidden` with {"hidden": true|false} ("Hide replies",
   * https://docs.x.com/x-api/posts/hide-replies/introduction; tweet.moderate.write): replies in a
   * conversation the user started. Answers {"data": {"hidden": <the new state>}}.
   */
  async setCommentHidden(account: ConnectorAccount, comment: CommentRef, hidden: boolean): Promise<void> {
    const response = await this.http.send({ method: 'PUT', url: `${this.ctx.baseUrl}/2/tweets/${encodeURIComponent(comment.platformCommentId)}/hidden`, headers: bearer(account), json: { hidden } });
    if (at(response.body, 'data', 'hidden') !== hidden) throw malformedAnswer(`data.hidden: ${hidden}`);
  }

  /**
   * `DELETE /2/tweets/:id` ("Delete Post", https://developer.x.com/en/docs/x-api/tweets/manage-tweets/api-reference/delete-tweets-id; tweet.write):
   * the user's own posts and replies. Answers {"data": {"deleted": true}}; a 404 once the post is gone,
   * which is taken as deleted (see PlatformConnector.deleteComment).
   */
  /**
   * "Get Post by ID" with tweet.fields=public_metrics (https://docs.x.com/x-api/posts/get-post-by-id; the fields,
   * "Metrics", https://docs.x.com/x-api/fundamentals/metrics): impression_count, like_count, reply_count,
   * retweet_count, bookmark_count (quote_count kept raw). Link clicks are non_public_metrics, the owner's for
   * 30 days only: not read, so clicks is null; X gives no reach, saves-beyond-bookmarks or video views here.
   * An id X no longer finds answers 200 with `errors` and no `data`.
   */
  async fetchItemMetrics(account: ConnectorAccount, platformPostId: string): Promise<ItemMetricsReading> {
    const response = await readingMetrics(
      () => this.http.send({ method: 'GET', url: `${this.ctx.baseUrl}/2/tweets/${encodeURIComponent(platformPostId)}?tweet.fields=public_metrics`, headers: bearer(account) }),
      ['forbidden'],
      ['tweet.read', 'users.read'],
    );
    const post = at(response.body, 'data');
    if (post === undefined) throw metricsItemNotFound(platformPostId);
    const raw = rawObject(at(post, 'public_metrics'), 'public_metrics on the post');
    return { metrics: itemMetrics({ impressions: raw.impression_count, likes: raw.like_count, comments: raw.reply_count, shares: raw.retweet_count, saves: raw.bookmark_count }), raw };
  }

  /** "Get my User" with user.fields=public_metrics (https://docs.x.com/x-api/users/get-my-user): followers_count. */
  async fetchAccountMetrics(account: ConnectorAccount): Promise<AccountMetricsReading> {
    const response = await readingMetrics(
      () => this.http.send({ method: 'GET', url: `${this.ctx.baseUrl}/2/users/me?user.fields=public_metrics`, headers: bearer(account) }),
      ['forbidden'],
      ['tweet.read', 'users.read'],
    );
    const raw = rawObject(at(response.body, 'data', 'public_metrics'), 'public_metrics on the user');
    return { followers: countOf(raw.followers_count), raw };
  }

  async deleteComment(account: ConnectorAccount, comment: CommentRef): Promise<void> {
    const response = await this.http.send({ method: 'DELETE', url: `${this.ctx.baseUrl}/2/tweets/${encodeURIComponent(comment.platformCommentId)}`, headers: bearer(account), answers: [404] });
    if (response.status !== 404 && at(response.body, 'data', 'deleted') !== true) throw malformedAnswer('data.deleted: true');
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
        const authorId = stringAt(post, 'author_id') ?? null;
        const author = usernames.get(authorId ?? undefined) ?? authorId ?? 'unknown';
        const repliedTo = arrayAt(post, 'referenced_tweets').find((ref) => stringAt(ref, 'type') === 'replied_to');
        const parent = stringAt(repliedTo, 'id') ?? platformPostId;
        return {
          platformCommentId: id,
          author,
          authorPlatformId: authorId,
          text: stringAt(post, 'text') ?? '',
          createdAt: stringAt(post, 'created_at') ?? '',
          url: `https://x.com/${author}/status/${id}`,
          parentPlatformPostId: platformPostId,
          inReplyToCommentId: parent === platformPostId ? null : parent,
        };
      })
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /**
   * Uploads one item and gives its media id once X has processed it, with its alt text set.
   * The first STATUS read comes after the check_after_secs the upload's answer named, not at once.
   */
  private async uploadMedia(account: ConnectorAccount, file: MediaFile, ref: MediaRef): Promise<string> {
    const { id, processing } = file.kind === 'image' ? await this.uploadImage(account, file) : await this.uploadInChunks(account, file);
    await waitUntilProcessed(this.http.policy, `media item ${file.url}`, processing, () => this.processingStatus(account, id));
    if (ref.altText !== null) {
      // "Create Media metadata" (https://docs.x.com/x-api/media/create-media-metadata): alt text, at most 1,000 characters.
      await this.http.send({ method: 'POST', url: `${this.ctx.baseUrl}/2/media/metadata`, headers: bearer(account), json: { id, metadata: { alt_text: { text: ref.altText } } } });
    }
    return id;
  }

  /** "Upload media" (https://docs.x.com/x-api/media/upload-media): an image in one multipart request, streamed from the spooled file. */
  private async uploadImage(account: ConnectorAccount, file: MediaFile): Promise<{ id: string; processing: ProcessingState }> {
    const form = new FormData();
    form.append('media', await file.blob(), uploadFileName(file));
    form.append('media_category', 'tweet_image');
    form.append('media_type', file.contentType);
    const response = await this.http.send({ method: 'POST', url: `${this.ctx.baseUrl}/2/media/upload`, headers: bearer(account), multipart: form });
    return { id: mediaIdOf(response), processing: processingOf(response) };
  }

  /**
   * Animated GIFs and videos go in chunks ("Chunked media upload", https://docs.x.com/x-api/media/quickstart/media-upload-chunked):
   * `POST /2/media/upload/initialize` ("Initialize media upload", https://docs.x.com/x-api/media/initialize-media-upload),
   * one `POST /2/media/upload/{id}/append` per segment ("Append Media upload", https://docs.x.com/x-api/media/append-media-upload),
   * then `POST /2/media/upload/{id}/finalize` ("Finalize Media upload", https://docs.x.com/x-api/media/media-upload-finalize),
   * whose processing_info tells whether X is still processing it.
   */
  private async uploadInChunks(account: ConnectorAccount, file: MediaFile): Promise<{ id: string; processing: ProcessingState }> {
    const initialized = await this.http.send({
      method: 'POST',
      url: `${this.ctx.baseUrl}/2/media/upload/initialize`,
      headers: bearer(account),
      json: { media_type: file.contentType, total_bytes: file.size, media_category: file.kind === 'gif' ? 'tweet_gif' : 'tweet_video' },
    });
    const id = mediaIdOf(initialized);
    const name = uploadFileName(file);
    for await (const chunk of file.chunks(APPEND_CHUNK_BYTES)) {
      const form = new FormData();
      form.append('media', new Blob([chunk.bytes], { type: 'application/octet-stream' }), name);
      form.append('segment_index', String(chunk.index));
      await this.http.send({ method: 'POST', url: `${this.ctx.baseUrl}/2/media/upload/${id}/append`, headers: bearer(account), multipart: form });
    }
    const finalized = await this.http.send({ method: 'POST', url: `${this.ctx.baseUrl}/2/media/upload/${id}/finalize`, headers: bearer(account) });
    return { id, processing: processingOf(finalized) };
  }

  /** "Get Media upload status" (https://docs.x.com/x-api/media/get-media-upload-status): `GET /2/media/upload?command=STATUS&media_id=`. */
  private async processingStatus(account: ConnectorAccount, id: string): Promise<ProcessingState> {
    const query = new URLSearchParams({ command: 'STATUS', media_id: id });
    return processingOf(await this.http.send({ method: 'GET', url: `${this.ctx.baseUrl}/2/media/upload?${query}`, headers: bearer(account) }));
  }

  private async createPost(account: ConnectorAccount, body: object): Promise<PublishOutcome> {
    const response = await this.http.send({ method: 'POST', url: `${this.ctx.baseUrl}/2/tweets`, headers: bearer(account), json: body, irreversible: true });
    const id = stringAt(response.body, 'data', 'id');
    if (!id) throw unreadablePublishAnswer('data.id');
    return published(id, postUrl(account, id));
  }
}

function mediaIdOf(response: PlatformResponse): string {
  const id = stringAt(response.body, 'data', 'id');
  if (!id) throw malformedAnswer('data.id on a media upload');
  return id;
}

/**
 * An upload's processing_info: absent once the media is ready; else its state, pending →
 * in_progress → succeeded | failed, with an error message when it failed, and while pending
 * or in progress `check_after_secs`, the wait before the next STATUS read
 * (https://docs.x.com/x-api/media/quickstart/media-upload-chunked, step 4; "Finalize Media upload":
 * "check after 5 seconds for update using STATUS command").
 */
function processingOf(response: PlatformResponse): ProcessingState {
  const info = at(response.body, 'data', 'processing_info');
  const state = stringAt(info, 'state');
  if (info === undefined || state === 'succeeded') return { state: 'ready' };
  if (state === 'failed') return { state: 'failed', message: stringAt(info, 'error', 'message') ?? 'X refused the media' };
  const checkAfterSecs = at(info, 'check_after_secs');
  return typeof checkAfterSecs === 'number' && checkAfterSecs > 0 ? { state: 'processing', checkAfterMs: checkAfterSecs * 1000 } : { state: 'processing' };
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

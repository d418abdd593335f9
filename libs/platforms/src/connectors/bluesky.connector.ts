import type { MediaFile, MediaRef } from '@app/media';
import type { AccountMetricsReading, ItemMetricsReading } from '@app/contracts';
import { countOf, itemMetrics, metricsItemNotFound, rawObject } from './metrics-reading';
import type { CommentRef, CommentTarget, ConnectorAccount, PlatformComment, PlatformConnector, PlatformError, PublishedLookup, PublishOutcome, PublishRequest } from '../connector';
import { checkText, firstRefusal, requireText, TextRule } from '../content/content-rules';
import { PlatformMediaRules, withCheckedMedia } from '../content/media-rules';
import { graphemeLength, utf8ByteLength } from '../content/text-length';
import { codeForStatus, isTransientStatus, PlatformCallFailed, PlatformHttp, PlatformResponse } from '../http/platform-http';
import { failed, malformedAnswer, published, toOutcome, unreadablePublishAnswer } from '../outcome';
import { arrayAt, at, bearer, ConnectorContext, snakeCase, stringAt } from './connector-context';
import { findInWindow, platformTimeMs, PublishedCandidate } from './published-lookup';
import { limitRefusal, PublishLimits } from '../content/publish-limit-rules';

/**
 * A Bluesky post's text takes 300 graphemes and 3,000 bytes of UTF-8: the app.bsky.feed.post
 * lexicon (github.com/bluesky-social/atproto lexicons/app/bsky/feed/post.json) gives text
 * maxGraphemes 300 and maxLength 3000, a string's maxLength being UTF-8 bytes
 * (Lexicon spec, https://atproto.com/specs/lexicon#string).
 */
export const BLUESKY_TEXT: TextRule[] = [
  { field: 'text', max: 300, measure: graphemeLength, unit: 'graphemes' },
  { field: 'text', max: 3_000, measure: utf8ByteLength, unit: 'bytes of UTF-8' },
];
const POST_COLLECTION = 'app.bsky.feed.post';
const THREADGATE_COLLECTION = 'app.bsky.feed.threadgate';
/** The threadgate lexicon's maxLength of hiddenReplies. */
const MAX_HIDDEN_REPLIES = 300;

/**
 * What a post's embed takes (lexicons in github.com/bluesky-social/atproto, lexicons/app/bsky/embed):
 * - app.bsky.embed.images: up to 4 images, each a blob accepting image/* of at most 2,000,000
 *   bytes ("May be up to 2 MB, formerly limited to 1 MB"), with `alt` and an optional aspectRatio;
 * - app.bsky.embed.video: one blob accepting video/mp4 only, at most 100,000,000 bytes ("May be
 *   up to 100mb, formerly limited to 50mb"); a post's embed is one of them, so a video is alone.
 * Image alt text: the lexicon sets no bound; Bluesky's own app stops at 2,000 characters
 * (bluesky-social/social-app src/lib/constants.ts MAX_ALT_TEXT), which we keep. A video's alt
 * has the lexicon's own bound (VIDEO_ALT_GRAPHEMES), checked once the file is known to be a video.
 * GIFs are refused (media_type_not_allowed): an images embed shows only a GIF's first frame and
 * Bluesky's app turns GIFs into video, a transcoding this pipeline does not do.
 * Videos: 3 minutes at most, the limit Bluesky raised from 60 seconds with its app 1.99 (March
 * 2025); the video service refuses longer ones when it processes them (docs.bsky.app/docs/tutorials/video).
 */
export const BLUESKY_MEDIA: PlatformMediaRules = {
  maxItems: 4,
  image: { types: ['image/jpeg', 'image/png', 'image/webp'], maxBytes: 2_000_000 },
  video: { types: ['video/mp4'], maxBytes: 100_000_000, maxSeconds: 180 },
  animatedAlone: true,
  maxAltText: 2_000,
};
/** app.bsky.embed.video `alt`: maxGraphemes 1000 (lexicons/app/bsky/embed/video.json). */
export const VIDEO_ALT_GRAPHEMES = 1_000;


/** What Bluesky refuses before any request (publish-limit-rules.ts). */
export const BLUESKY_LIMITS: PublishLimits = { name: 'Bluesky', text: BLUESKY_TEXT, media: BLUESKY_MEDIA, trims: true };

/**
 * Bluesky (atproto XRPC): a post is an `app.bsky.feed.post` record created with
 * `com.atproto.repo.createRecord`; its url is built from the at-uri's rkey. A reply carries
 * `reply.root` and `reply.parent` strong refs, read with `com.atproto.repo.getRecord`.
 * Comments: `app.bsky.feed.getPostThread`. Reconciliation: `com.atproto.repo.listRecords`.
 * Media: each file goes to the PDS with `com.atproto.repo.uploadBlob` and the post embeds the
 * returned blobs ("Images and Video", https://atproto.com/guides/images-and-video). Video takes
 * the same path, the "simple method" of https://docs.bsky.app/docs/tutorials/video (uploadBlob,
 * then app.bsky.embed.video): the recommended path goes through the video service
 * (video.bsky.app: app.bsky.video.uploadVideo with a getServiceAuth token, then getJobStatus),
 * a second host this connector has no configured endpoint for; the price is that the video
 * service starts processing once the post is out, so the post shows its video a few seconds late.
 * credentials.accessToken is the session's accessJwt; identity.platformAccountId the DID; identity.instanceUrl the account's PDS.
 */
export class BlueskyConnector implements PlatformConnector {
  readonly platform = 'bluesky' as const;
  private readonly http: PlatformHttp;

  constructor(private readonly ctx: ConnectorContext) {
    this.http = new PlatformHttp(mapBlueskyError, ctx.retry);
  }

  /** XRPC calls go to the account's own PDS (the configured base url when none is known). */
  private xrpc(account: ConnectorAccount): string {
    return `${(account.identity.instanceUrl ?? this.ctx.baseUrl).replace(/\/+$/, '')}/xrpc`;
  }

  async publish(account: ConnectorAccount, request: PublishRequest): Promise<PublishOutcome> {
    const text = request.content.trim();
    const refusal = limitRefusal(BLUESKY_LIMITS, request);
    if (refusal) return failed(refusal);
    if (request.media.length === 0) return toOutcome(async () => this.createPost(account, { text, ...(await this.replyOf(account, request.replyTo)) }));
    return toOutcome(() =>
      withCheckedMedia(this.ctx.media, request.media, BLUESKY_MEDIA, 'Bluesky', async (files) => {
        const videoAltRefusal = videoAltTooLong(files, request.media);
        if (videoAltRefusal) throw new PlatformCallFailed(videoAltRefusal);
        return this.createPost(account, { text, ...(await this.replyOf(account, request.replyTo)), embed: await this.embed(account, files, request.media) });
      }),
    );
  }

  async comment(account: ConnectorAccount, target: CommentTarget, text: string): Promise<PublishOutcome> {
    const refusal = firstRefusal(requireText(text), checkText(text, ...BLUESKY_TEXT));
    if (refusal) return failed(refusal);
    const parentUri = target.kind === 'post' ? target.platformPostId : target.platformCommentId;
    return toOutcome(async () => this.createPost(account, { text, ...(await this.replyOf(account, parentUri)) }));
  }

  /**
   * A reply's `reply` field: strong refs ({uri, cid}) to its parent and to its thread's root (the
   * parent's own root, or the parent when it is a top-level post), the parent read with getRecord
   * ("Posts", Replies, https://docs.bsky.app/docs/advanced-guides/posts). Nothing for a post that replies to none.
   */
  private async replyOf(account: ConnectorAccount, parentUri: string | undefined): Promise<{ reply?: { root: unknown; parent: { uri: string; cid: string } } }> {
    if (!parentUri) return {};
    const parent = await this.getRecord(account, parentUri);
    const parentRef = { uri: parent.uri, cid: parent.cid };
    return { reply: { root: at(parent.value, 'reply', 'root') ?? parentRef, parent: parentRef } };
  }

  /**
   * The account's post records ("com.atproto.repo.listRecords", https://docs.bsky.app/docs/api/com-atproto-repo-list-records):
   * repo = the DID, collection app.bsky.feed.post, newest first, `limit` up to 100, `cursor` for the next page.
   * Each record's `createdAt` is the one the connector wrote when it made the post; the embed tells the
   * media count (app.bsky.embed.images its images, app.bsky.embed.video one, recordWithMedia its media).
   * Matched by findInWindow.
   */
  async findPublished(account: ConnectorAccount, request: PublishedLookup): Promise<{ platformPostId: string; url: string } | null> {
    return findInWindow(request, 'Bluesky', async (cursor) => {
      const query = new URLSearchParams({ repo: account.identity.platformAccountId, collection: POST_COLLECTION, limit: '100', ...(cursor ? { cursor } : {}) });
      const response = await this.http.send({ method: 'GET', url: `${this.xrpc(account)}/com.atproto.repo.listRecords?${query}`, headers: bearer(account) });
      const candidates = arrayAt(response.body, 'records').map((record): PublishedCandidate => {
        const uri = stringAt(record, 'uri');
        if (!uri) throw malformedAnswer('uri on a record');
        return { platformPostId: uri, url: postUrl(account.identity.handle, uri), text: stringAt(record, 'value', 'text') ?? '', createdAtMs: platformTimeMs(at(record, 'value', 'createdAt')), mediaCount: embeddedMediaCount(at(record, 'value', 'embed')) };
      });
      return { candidates, next: stringAt(response.body, 'cursor') ?? null };
    });
  }

  /**
   * Hides a reply (or shows it again) through the thread's threadgate (app.bsky.feed.threadgate,
   * https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/feed/threadgate.json): a
   * record in the root post author's repo, its rkey the root post's, whose `hiddenReplies` (at most
   * 300 at-uris) lists the replies the author hid. Read with com.atproto.repo.getRecord (none yet:
   * 400 RecordNotFound), written whole with com.atproto.repo.putRecord
   * (https://docs.bsky.app/docs/api/com-atproto-repo-put-record), `swapRecord` the cid read, so a change
   * made in between is refused (InvalidSwap) rather than overwritten. Its `allow` rules are kept as they
   * are; a new threadgate has none, which lets anyone reply (so hiding never restricts replies). Only the
   * root post's author can write it: another account is refused without a request.
   */
  async setCommentHidden(account: ConnectorAccount, comment: CommentRef, hidden: boolean): Promise<void> {
    const root = parseAtUri(comment.platformPostId);
    if (!root || root.repo !== account.identity.platformAccountId) {
      throw new PlatformCallFailed({ code: 'not_thread_author', message: `only the author of ${comment.platformPostId} can hide replies in its thread`, retryable: false });
    }
    const gate = { repo: root.repo, collection: THREADGATE_COLLECTION, rkey: root.rkey };
    const current = await this.threadgate(account, gate);
    const others = arrayAt(current?.value, 'hiddenReplies').filter((uri) => uri !== comment.platformCommentId);
    const hiddenReplies = hidden ? [...others, comment.platformCommentId] : others;
    if (hiddenReplies.length > MAX_HIDDEN_REPLIES) {
      throw new PlatformCallFailed({ code: 'too_many_hidden_replies', message: `a Bluesky thread hides at most ${MAX_HIDDEN_REPLIES} replies`, retryable: false });
    }
    const record = {
      // The threadgate as it was (its `allow` rules and any field this connector does not know), changed only where it hides.
      ...(typeof current?.value === 'object' && current.value !== null ? current.value : {}),
      $type: THREADGATE_COLLECTION,
      post: comment.platformPostId,
      createdAt: stringAt(current?.value, 'createdAt') ?? new Date().toISOString(),
      hiddenReplies,
    };
    await this.http.send({
      method: 'POST',
      url: `${this.xrpc(account)}/com.atproto.repo.putRecord`,
      headers: bearer(account),
      json: { ...gate, record, ...(current ? { swapRecord: current.cid } : {}) },
    });
  }

  /** The thread's threadgate record, null when the author never wrote one (getRecord answers 400 RecordNotFound). */
  private async threadgate(account: ConnectorAccount, gate: { repo: string; collection: string; rkey: string }): Promise<{ cid: string; value: unknown } | null> {
    try {
      const response = await this.http.send({ method: 'GET', url: `${this.xrpc(account)}/com.atproto.repo.getRecord?${new URLSearchParams(gate)}`, headers: bearer(account) });
      const cid = stringAt(response.body, 'cid');
      if (!cid) throw malformedAnswer('cid');
      return { cid, value: at(response.body, 'value') };
    } catch (error) {
      if (error instanceof PlatformCallFailed && error.error.code === 'record_not_found') return null;
      throw error;
    }
  }

  /**
   * `com.atproto.repo.deleteRecord` {repo, collection, rkey} (https://docs.bsky.app/docs/api/com-atproto-repo-delete-record):
   * a reply is a post record in its author's repo, named by its at:// uri; a PDS deletes only from the
   * session's own repo. Answers 200 (with the commit, none when the record was already gone).
   */
  /**
   * "app.bsky.feed.getPosts" (https://docs.bsky.app/docs/api/app-bsky-feed-get-posts): the PostView's likeCount,
   * repostCount (shares), replyCount, quoteCount (kept raw). Bluesky counts no impressions, reach, saves, clicks or
   * views: null. An app password's session has no scopes, so there is no scope refusal to map.
   */
  async fetchItemMetrics(account: ConnectorAccount, platformPostId: string): Promise<ItemMetricsReading> {
    const query = new URLSearchParams({ uris: platformPostId });
    const response = await this.http.send({ method: 'GET', url: `${this.xrpc(account)}/app.bsky.feed.getPosts?${query}`, headers: bearer(account) });
    const post = arrayAt(response.body, 'posts').find((candidate) => stringAt(candidate, 'uri') === platformPostId);
    if (post === undefined) throw metricsItemNotFound(platformPostId);
    const view = rawObject(post, 'post view');
    const raw = { likeCount: view.likeCount, repostCount: view.repostCount, replyCount: view.replyCount, quoteCount: view.quoteCount };
    return { metrics: itemMetrics({ likes: raw.likeCount, shares: raw.repostCount, comments: raw.replyCount }), raw };
  }

  /** "app.bsky.actor.getProfile" (https://docs.bsky.app/docs/api/app-bsky-actor-get-profile) of the account's DID: followersCount. */
  async fetchAccountMetrics(account: ConnectorAccount): Promise<AccountMetricsReading> {
    const query = new URLSearchParams({ actor: account.identity.platformAccountId });
    const response = await this.http.send({ method: 'GET', url: `${this.xrpc(account)}/app.bsky.actor.getProfile?${query}`, headers: bearer(account) });
    const profile = rawObject(response.body, 'profile');
    const raw = { followersCount: profile.followersCount, followsCount: profile.followsCount, postsCount: profile.postsCount };
    return { followers: countOf(raw.followersCount), raw };
  }

  async deleteComment(account: ConnectorAccount, comment: CommentRef): Promise<void> {
    const parts = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(comment.platformCommentId);
    if (!parts) throw new PlatformCallFailed({ code: 'invalid_comment_id', message: `${comment.platformCommentId} is not an at:// record uri`, retryable: false });
    const [, repo, collection, rkey] = parts;
    await this.http.send({ method: 'POST', url: `${this.xrpc(account)}/com.atproto.repo.deleteRecord`, headers: bearer(account), json: { repo, collection, rkey } });
  }

  async listComments(account: ConnectorAccount, platformPostId: string): Promise<PlatformComment[]> {
    const query = new URLSearchParams({ uri: platformPostId, depth: '10' });
    const response = await this.http.send({ method: 'GET', url: `${this.xrpc(account)}/app.bsky.feed.getPostThread?${query}`, headers: bearer(account) });
    const comments: PlatformComment[] = [];
    const walk = (node: unknown, parentUri: string): void => {
      for (const reply of arrayAt(node, 'replies')) {
        const uri = stringAt(reply, 'post', 'uri');
        if (!uri) throw malformedAnswer('uri on a reply');
        const handle = stringAt(reply, 'post', 'author', 'handle') ?? 'unknown';
        comments.push({
          platformCommentId: uri,
          author: handle,
          // A post view's author is a profileViewBasic {did, handle} (https://docs.bsky.app/docs/api/app-bsky-feed-get-post-thread).
          authorPlatformId: stringAt(reply, 'post', 'author', 'did') ?? null,
          text: stringAt(reply, 'post', 'record', 'text') ?? '',
          createdAt: stringAt(reply, 'post', 'record', 'createdAt') ?? '',
          url: postUrl(handle, uri),
          parentPlatformPostId: platformPostId,
          inReplyToCommentId: parentUri === platformPostId ? null : parentUri,
        });
        walk(reply, uri);
      }
    };
    walk(at(response.body, 'thread'), platformPostId);
    return comments.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /** Uploads each file as a blob (safe to repeat: an unreferenced blob is dropped by the PDS) and builds the post's embed. */
  private async embed(account: ConnectorAccount, files: MediaFile[], media: readonly MediaRef[]): Promise<Record<string, unknown>> {
    const blobs: unknown[] = [];
    for (const file of files) blobs.push(await this.uploadBlob(account, file));
    if (files[0].kind === 'video') {
      // app.bsky.embed.video (lexicons/app/bsky/embed/video.json): video, alt, aspectRatio.
      return { $type: 'app.bsky.embed.video', video: blobs[0], ...(media[0].altText ? { alt: media[0].altText } : {}), ...aspectRatio(files[0]) };
    }
    // app.bsky.embed.images: `alt` is required, an empty string when there is none.
    return { $type: 'app.bsky.embed.images', images: files.map((file, index) => ({ image: blobs[index], alt: media[index].altText ?? '', ...aspectRatio(file) })) };
  }

  /**
   * com.atproto.repo.uploadBlob (https://docs.bsky.app/docs/api/com-atproto-repo-upload-blob):
   * the raw bytes as the body, their type in Content-Type; answers {blob: {$type: 'blob', ref:
   * {$link: cid}, mimeType, size}}, which the record references as is. Streamed from the spooled file.
   */
  private async uploadBlob(account: ConnectorAccount, file: MediaFile): Promise<unknown> {
    const response = await this.http.send({
      method: 'POST',
      url: `${this.xrpc(account)}/com.atproto.repo.uploadBlob`,
      headers: bearer(account),
      raw: { body: await file.blob(), contentType: file.contentType },
    });
    const blob = at(response.body, 'blob');
    if (!stringAt(blob, 'ref', '$link')) throw malformedAnswer('blob ref');
    return blob;
  }

  private async createPost(account: ConnectorAccount, fields: Record<string, unknown>): Promise<PublishOutcome> {
    const response = await this.http.send({
      method: 'POST',
      url: `${this.xrpc(account)}/com.atproto.repo.createRecord`,
      headers: bearer(account),
      json: {
        repo: account.identity.platformAccountId,
        collection: POST_COLLECTION,
        record: { $type: POST_COLLECTION, ...fields, createdAt: new Date().toISOString() },
      },
      irreversible: true,
    });
    const uri = stringAt(response.body, 'uri');
    if (!uri) throw unreadablePublishAnswer('uri');
    return published(uri, postUrl(account.identity.handle, uri));
  }

  private async getRecord(account: ConnectorAccount, uri: string): Promise<{ uri: string; cid: string; value: unknown }> {
    const parts = parseAtUri(uri);
    if (!parts) throw new PlatformCallFailed({ code: 'invalid_parent', message: `${uri} is not an at:// post uri`, retryable: false });
    const query = new URLSearchParams(parts);
    const response = await this.http.send({ method: 'GET', url: `${this.xrpc(account)}/com.atproto.repo.getRecord?${query}`, headers: bearer(account) });
    const cid = stringAt(response.body, 'cid');
    if (!cid) throw malformedAnswer('cid');
    return { uri: stringAt(response.body, 'uri') ?? uri, cid, value: at(response.body, 'value') };
  }
}

/** How many media items a post's embed carries (lexicons/app/bsky/embed): images, a video, or recordWithMedia's media; links and quotes none. */
function embeddedMediaCount(embed: unknown): number {
  const type = stringAt(embed, '$type');
  if (type === 'app.bsky.embed.images') return arrayAt(embed, 'images').length;
  if (type === 'app.bsky.embed.video') return 1;
  if (type === 'app.bsky.embed.recordWithMedia') return embeddedMediaCount(at(embed, 'media'));
  return 0;
}

/** app.bsky.embed.defs#aspectRatio {width, height} (integers, at least 1) when the bytes tell the size. */
function aspectRatio(file: MediaFile): { aspectRatio?: { width: number; height: number } } {
  return file.width && file.height ? { aspectRatio: { width: file.width, height: file.height } } : {};
}

/** A video's alt text over the video embed's maxGraphemes (image alt is bounded by BLUESKY_MEDIA.maxAltText). */
function videoAltTooLong(files: readonly MediaFile[], media: readonly MediaRef[]): PlatformError | null {
  const alt = files[0]?.kind === 'video' ? media[0].altText : null;
  if (alt === null || graphemeLength(alt) <= VIDEO_ALT_GRAPHEMES) return null;
  return { code: 'alt_text_too_long', message: `the alt text of the video has ${graphemeLength(alt)} graphemes; a Bluesky video takes at most ${VIDEO_ALT_GRAPHEMES}`, retryable: false };
}

/** at://{repo}/{collection}/{rkey} */
function parseAtUri(uri: string): { repo: string; collection: string; rkey: string } | null {
  const match = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(uri);
  return match ? { repo: match[1], collection: match[2], rkey: match[3] } : null;
}

/** https://bsky.app/profile/{handle}/post/{rkey}, the rkey being the at-uri's last segment. */
function postUrl(handle: string, uri: string): string {
  return `https://bsky.app/profile/${handle.replace(/^@/, '')}/post/${uri.split('/').pop()}`;
}

/**
 * Refused tokens, as the reference PDS answers them (bluesky-social/atproto, packages/pds
 * auth-verifier and com.atproto.server.refreshSession): 400 ExpiredToken "Token has expired"
 * (401 when the AppView verifies it) or "Token has been revoked" for a spent refreshJwt;
 * 400 InvalidToken "Token could not be verified"; 401 AuthenticationRequired (a wrong app
 * password, or a repo that is not the session's) and 401 AuthMissing (no token).
 */
const TOKEN_REFUSALS = new Map([
  ['ExpiredToken', 'access_token_expired'],
  ['InvalidToken', 'access_token_invalid'],
  ['AuthenticationRequired', 'access_token_invalid'],
  ['AuthMissing', 'access_token_invalid'],
]);

/** XRPC errors: {"error": "InvalidRequest", "message": "..."} (https://atproto.com/specs/xrpc#error-responses). */
export function mapBlueskyError(response: PlatformResponse): PlatformError {
  const name = stringAt(response.body, 'error');
  return {
    code: response.status === 429 ? 'rate_limited' : name ? (TOKEN_REFUSALS.get(name) ?? snakeCase(name)) : codeForStatus(response.status),
    message: stringAt(response.body, 'message') ?? name ?? `Bluesky answered HTTP ${response.status}`,
    retryable: isTransientStatus(response.status),
  };
}

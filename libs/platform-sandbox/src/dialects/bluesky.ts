import { createHash } from 'node:crypto';
import { graphemeLength, utf8ByteLength } from '@app/platforms/content/text-length';
import type { SandboxIdentity } from '../auth/authority';
import { field, NewComment, PlatformDialect, PlatformRefusal, required, resetEpochSeconds, rootPostId, RouteAnswer, RouteContext } from '../dialect';
import type { SandboxItem, SandboxStore, SandboxUpload } from '../store';
import { inspectUpload } from './uploaded-media';
import { pageOf, pageSize } from './listing';
import { commentAuthor } from './comment-author';
import { followerCount, itemCounts } from './metrics-growth';

const COLLECTION = 'app.bsky.feed.post';
const BASE32_SORTABLE = '234567abcdefghijklmnopqrstuvwxyz';

/** A 13-character record key in atproto's TID alphabet, increasing with the sequence. */
function tid(store: SandboxStore): string {
  let value = BigInt(Date.now()) * 1000n + BigInt(store.nextSeq() % 1000);
  let key = '';
  for (let i = 0; i < 13; i++) {
    key = BASE32_SORTABLE[Number(value & 31n)] + key;
    value >>= 5n;
  }
  return key;
}

function cid(uri: string): string {
  return `bafyrei${createHash('sha256').update(uri).digest('hex').slice(0, 52)}`;
}

function storeRecord(store: SandboxStore, item: Omit<SandboxItem, 'id' | 'createdAt' | 'extra' | 'media'> & { media?: SandboxItem['media'] }, repo: string, reply?: unknown, embed?: unknown): SandboxItem {
  const uri = `at://${repo}/${COLLECTION}/${tid(store)}`;
  const record = { $type: COLLECTION, text: item.text, createdAt: new Date().toISOString(), ...(reply ? { reply } : {}), ...(embed ? { embed } : {}) };
  return store.add({ ...item, id: uri, extra: { cid: cid(uri), record: JSON.stringify(record) } });
}

/**
 * The PDS's blob limit: bsky.social takes blobs up to the largest a record accepts, a video's
 * 100,000,000 bytes; a larger body is refused before it is stored (413 PayloadTooLarge).
 */
const BLOB_UPLOAD_LIMIT = 100_000_000;

/**
 * What the embeds accept (lexicons/app/bsky/embed/images.json and video.json in
 * bluesky-social/atproto): up to 4 images, each an image/* blob of at most 2,000,000 bytes with
 * a required `alt`; or one video/mp4 blob of at most 100,000,000 bytes whose `alt` takes at
 * most 1,000 graphemes.
 */
const MAX_IMAGES = 4;
const IMAGE_BLOB = { accept: 'image/*', maxSize: 2_000_000 };
const VIDEO_BLOB = { accept: 'video/mp4', maxSize: 100_000_000 };
const VIDEO_ALT_GRAPHEMES = 1_000;

/**
 * com.atproto.repo.uploadBlob (https://docs.bsky.app/docs/api/com-atproto-repo-upload-blob):
 * the raw body is stored as a blob of the session's repo, its type sniffed from the bytes
 * (the reference PDS trusts the bytes before the Content-Type header), and answered as
 * {blob: {$type: 'blob', ref: {$link: cid}, mimeType, size}}. A blob is ready at once: the
 * PDS does not process it.
 */
function uploadBlob({ store, account, body, headers }: RouteContext) {
  if (!Buffer.isBuffer(body) || body.length === 0) throw new PlatformRefusal(400, 'InvalidRequest', 'Request body must be the blob bytes');
  if (body.length > BLOB_UPLOAD_LIMIT) throw new PlatformRefusal(413, 'PayloadTooLarge', 'request entity too large');
  const inspected = inspectUpload(body);
  const mimeType = inspected.contentType === 'application/octet-stream' ? String(headers['content-type'] ?? inspected.contentType) : inspected.contentType;
  const ref = `bafkrei${createHash('sha256').update(body).digest('hex').slice(0, 52)}`;
  // Content-addressed: the same bytes from another repo are the same cid, held by that repo too.
  const existing = store.upload('bluesky', ref);
  if (existing) existing.extra[`repo:${account}`] = 'held';
  else {
    store.addUpload({
      platform: 'bluesky', account, id: ref, ...inspected, contentType: mimeType, declaredBytes: body.length, receivedBytes: body.length,
      altText: null, state: 'ready', readyAt: Date.now(),
    });
  }
  return { body: { blob: { $type: 'blob', ref: { $link: ref }, mimeType, size: body.length } } };
}

/**
 * The blobs an embed references, checked as the PDS checks a record's blobs (packages/pds
 * blob transactor): each must be a blob this repo uploaded (BlobNotFound), of an accepted type
 * (InvalidMimeType) and size (BlobTooLarge); the images and video lexicons' own bounds are
 * validation errors of the record. Answers the uploads with their alt text, in order.
 */
function embeddedUploads(store: SandboxStore, account: string, embed: unknown): SandboxUpload[] {
  const type = field(embed, '$type');
  if (type === 'app.bsky.embed.images') {
    const images = field(embed, 'images');
    if (!Array.isArray(images)) throw invalidRecord('Record/embed/images must be an array');
    if (images.length > MAX_IMAGES) throw invalidRecord(`Record/embed/images must not have more than ${MAX_IMAGES} elements`);
    return images.map((image, index) => {
      const alt = field(image, 'alt');
      if (typeof alt !== 'string') throw invalidRecord(`Record/embed/images/${index} must have the property "alt"`);
      return withAlt(referencedBlob(store, account, field(image, 'image'), IMAGE_BLOB), alt);
    });
  }
  if (type === 'app.bsky.embed.video') {
    const alt = field(embed, 'alt');
    if (alt !== undefined && (typeof alt !== 'string' || graphemeLength(alt) > VIDEO_ALT_GRAPHEMES)) {
      throw invalidRecord(`Record/embed/alt must not be longer than ${VIDEO_ALT_GRAPHEMES} graphemes`);
    }
    return [withAlt(referencedBlob(store, account, field(embed, 'video'), VIDEO_BLOB), typeof alt === 'string' ? alt : '')];
  }
  throw invalidRecord('the sandbox plays only app.bsky.embed.images and app.bsky.embed.video embeds');
}

function referencedBlob(store: SandboxStore, account: string, blob: unknown, constraint: { accept: string; maxSize: number }): SandboxUpload {
  const ref = field(field(blob, 'ref'), '$link');
  const upload = typeof ref === 'string' ? store.upload('bluesky', ref) : undefined;
  const held = upload !== undefined && (upload.account === account || upload.extra[`repo:${account}`] === 'held');
  if (!upload || !held) throw new PlatformRefusal(400, 'BlobNotFound', `Could not find blob: ${String(ref)}`);
  const accepted = constraint.accept.endsWith('/*') ? upload.contentType.startsWith(constraint.accept.slice(0, -1)) : upload.contentType === constraint.accept;
  if (!accepted) throw new PlatformRefusal(400, 'InvalidMimeType', `Wrong type of file. It is ${upload.contentType} but it must match ${constraint.accept}.`);
  if (upload.receivedBytes > constraint.maxSize) {
    throw new PlatformRefusal(400, 'BlobTooLarge', `This file is too large. It is ${upload.receivedBytes} bytes but the maximum size is ${constraint.maxSize} bytes.`);
  }
  return upload;
}

/** The same blob may appear in several records; each item keeps its own alt text. */
function withAlt(upload: SandboxUpload, alt: string): SandboxUpload {
  return { ...upload, altText: alt === '' ? null : alt };
}

function invalidRecord(message: string): PlatformRefusal {
  return new PlatformRefusal(400, 'InvalidRequest', `Invalid app.bsky.feed.post record: ${message}`);
}

/** The DID of a comment author's repo: the session's own, or one made up from a control API commenter's name. */
function repoDid(author: string): string {
  return author.startsWith('did:') ? author : `did:plc:${author}`;
}

function createComment(store: SandboxStore, { account, parent, text, author, media }: NewComment): SandboxItem {
  const parentRef = { uri: parent.id, cid: parent.extra.cid };
  const root = store.find('bluesky', rootPostId(parent));
  const reply = { root: { uri: root?.id ?? parent.id, cid: root?.extra.cid ?? parent.extra.cid }, parent: parentRef };
  const repo = repoDid(author);
  return storeRecord(store, { platform: 'bluesky', account, owner: author, kind: 'comment', text, mediaUrls: [], media, parentId: parent.id, postId: rootPostId(parent), author }, repo, reply);
}

function recordOf(item: SandboxItem): unknown {
  return JSON.parse(item.extra.record);
}

/**
 * A thread as app.bsky.feed.getPostThread answers it (https://docs.bsky.app/docs/api/app-bsky-feed-get-post-thread):
 * each post view's `author` is a profileViewBasic {did, handle, displayName}; a control API
 * commenter's DID is the made-up one its reply's repo has (createComment).
 */
function threadView(store: SandboxStore, item: SandboxItem): unknown {
  const author = commentAuthor(store, item, repoDid);
  return {
    $type: 'app.bsky.feed.defs#threadViewPost',
    post: { uri: item.id, cid: item.extra.cid, author: { did: author.id, handle: author.handle, displayName: author.displayName }, record: recordOf(item), indexedAt: item.createdAt },
    replies: store.items.filter((reply) => reply.platform === 'bluesky' && reply.parentId === item.id).map((reply) => threadView(store, reply)),
  };
}

function byUri(store: SandboxStore, uri: string): SandboxItem {
  const item = store.find('bluesky', uri);
  if (!item) throw new PlatformRefusal(400, 'RecordNotFound', `Could not locate record: ${uri}`);
  return item;
}

/**
 * How the reference PDS refuses a token (bluesky-social/atproto packages/pds auth-verifier;
 * refreshSession answers a spent refreshJwt with ExpiredToken "Token has been revoked").
 */
export function tokenRefused(reason: 'missing' | 'unknown' | 'expired' | 'revoked'): PlatformRefusal {
  if (reason === 'missing') return new PlatformRefusal(401, 'AuthMissing', 'Authentication Required');
  if (reason === 'unknown') return new PlatformRefusal(400, 'InvalidToken', 'Token could not be verified');
  return new PlatformRefusal(400, 'ExpiredToken', reason === 'expired' ? 'Token has expired' : 'Token has been revoked');
}

/** XRPC error body (https://atproto.com/specs/xrpc): {"error": name, "message": text}. */
function xrpcError(status: number, code: string | undefined, message: string) {
  return { status, body: { error: code ?? (status === 401 ? 'AuthMissing' : status >= 500 ? 'InternalServerError' : 'InvalidRequest'), message } };
}

/**
 * A PDS writes only to the session's own repo (createRecord: its DID or handle): another
 * account's repo is 401 AuthenticationRequired, an unknown one 400 "Could not find repo".
 */
function ownRepo(store: SandboxStore, identity: SandboxIdentity | null, repo: string): string {
  if (identity && (repo === identity.platformAccountId || repo === identity.handle)) return identity.platformAccountId;
  if (!store.auth.byPlatformId('bluesky', repo)) throw new PlatformRefusal(400, 'InvalidRequest', `Could not find repo: ${repo}`);
  throw new PlatformRefusal(401, 'AuthenticationRequired', 'Authentication Required');
}

const THREADGATE = 'app.bsky.feed.threadgate';
/** The threadgate lexicon's maxLength of hiddenReplies. */
const MAX_HIDDEN_REPLIES = 300;

/**
 * A thread's threadgate written with putRecord (app.bsky.feed.threadgate,
 * https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/feed/threadgate.json): "The record
 * key (rkey) of the threadgate record must match the record key of the thread's root post, and that record
 * must be in the same repository"; `post` names that root; `hiddenReplies` (at most 300 at-uris) are the
 * replies its author hid, which the sandbox marks hidden (every other reply under the root shown).
 */
function putThreadgate(ctx: RouteContext, repo: string): RouteAnswer {
  const { store, body } = ctx;
  const invalid = (message: string) => new PlatformRefusal(400, 'InvalidRequest', message);
  if (field(body, 'collection') !== THREADGATE) throw invalid(`the sandbox writes only ${THREADGATE} records with putRecord`);
  const rkey = required(field(body, 'rkey'), 'rkey', 'InvalidRequest');
  const uri = `at://${repo}/${THREADGATE}/${rkey}`;
  const record = field(body, 'record');
  const post = store.find('bluesky', String(field(record, 'post')));
  if (field(record, '$type') !== THREADGATE || !post || post.kind !== 'post' || post.id !== `at://${repo}/app.bsky.feed.post/${rkey}`) {
    throw invalid('Invalid app.bsky.feed.threadgate record: post must be the root post with the same rkey in this repo');
  }
  if (typeof field(record, 'createdAt') !== 'string') throw invalid('Invalid app.bsky.feed.threadgate record: Record must have the property "createdAt"');
  const hiddenReplies = field(record, 'hiddenReplies') ?? [];
  if (!Array.isArray(hiddenReplies) || hiddenReplies.some((reply) => typeof reply !== 'string') || hiddenReplies.length > MAX_HIDDEN_REPLIES) {
    throw invalid(`Invalid app.bsky.feed.threadgate record: Record/hiddenReplies must be an array of at most ${MAX_HIDDEN_REPLIES} at-uris`);
  }
  const current = store.records.get(uri);
  const swap = field(body, 'swapRecord');
  if (swap !== undefined && swap !== (current?.cid ?? null)) throw new PlatformRefusal(400, 'InvalidSwap', `Record was at ${current?.cid ?? 'null'}`);

  const json = JSON.stringify(record);
  const written = cid(`${uri}#${json}`);
  store.records.set(uri, { cid: written, record: json });
  for (const reply of store.commentsUnder('bluesky', post.id)) store.setHidden(reply, hiddenReplies.includes(reply.id));
  return { body: { uri, cid: written, validationStatus: 'valid' } };
}

/** Bluesky PDS/AppView XRPC: uploadBlob, createRecord (with image and video embeds), getRecord, putRecord (threadgates), listRecords, getPostThread. */
export const blueskyDialect: PlatformDialect = {
  platform: 'bluesky',
  error: xrpcError,
  // A session of a narrower kind than the call needs (an app password without DM access): XRPC's InvalidToken "Bad token scope".
  insufficientScope: () => xrpcError(400, 'InvalidToken', 'Bad token scope'),
  unauthorized: (reason) => {
    const refusal = tokenRefused(reason);
    return xrpcError(refusal.status, refusal.code, refusal.message);
  },
  rateLimited: (resetAfterSeconds) => ({
    status: 429,
    headers: { 'ratelimit-limit': '5000', 'ratelimit-remaining': '0', 'ratelimit-reset': String(resetEpochSeconds(resetAfterSeconds)), 'ratelimit-policy': '5000;w=3600' },
    body: { error: 'RateLimitExceeded', message: 'Rate Limit Exceeded' },
  }),
  createComment,
  routes: [
    { method: 'POST', url: '/xrpc/com.atproto.repo.uploadBlob', operation: 'upload', handle: uploadBlob },
    {
      method: 'POST',
      url: '/xrpc/com.atproto.repo.createRecord',
      operation: ({ body }) => (field(field(body, 'record'), 'reply') ? 'comment' : 'publish'),
      handle: ({ store, account, identity, body }) => {
        const repo = ownRepo(store, identity, required(field(body, 'repo'), 'repo'));
        if (field(body, 'collection') !== COLLECTION) throw new PlatformRefusal(400, 'InvalidRequest', 'the sandbox only stores app.bsky.feed.post records');
        const record = field(body, 'record');
        const text = field(record, 'text');
        if (typeof text !== 'string') throw new PlatformRefusal(400, 'InvalidRecord', 'Record/text must be a string');
        // The app.bsky.feed.post lexicon (bluesky-social/atproto lexicons/app/bsky/feed/post.json): text maxGraphemes 300
        // and maxLength 3000, a maxLength counting UTF-8 bytes (https://atproto.com/specs/lexicon#string).
        if (graphemeLength(text) > 300) throw new PlatformRefusal(400, 'InvalidRequest', 'Invalid app.bsky.feed.post record: Record/text must not be longer than 300 graphemes');
        if (utf8ByteLength(text) > 3000) throw new PlatformRefusal(400, 'InvalidRequest', 'Invalid app.bsky.feed.post record: Record/text must not be longer than 3000 characters');
        const reply = field(record, 'reply');
        const embed = field(record, 'embed');
        const media = embed === undefined ? [] : embeddedUploads(store, account, embed);
        let item: SandboxItem;
        if (reply) {
          // A reply names its parent and its thread's root by strong refs ({uri, cid}), embed and all
          // ("Posts", Replies, https://docs.bsky.app/docs/advanced-guides/posts).
          const parent = byUri(store, String(field(field(reply, 'parent'), 'uri')));
          if (field(field(reply, 'parent'), 'cid') !== parent.extra.cid) throw new PlatformRefusal(400, 'InvalidRequest', 'reply.parent.cid does not match');
          const root = byUri(store, String(field(field(reply, 'root'), 'uri')));
          if (field(field(reply, 'root'), 'cid') !== root.extra.cid || root.id !== rootPostId(parent)) throw new PlatformRefusal(400, 'InvalidRequest', 'reply.root is not the root of the parent\'s thread');
          item = createComment(store, { account, parent, text, author: repo, media });
        } else {
          item = storeRecord(store, { platform: 'bluesky', account, owner: repo, kind: 'post', text, mediaUrls: [], media, parentId: null, postId: null, author: repo }, repo, undefined, embed);
        }
        for (const upload of media) upload.attachedTo = store.upload('bluesky', upload.id)!.attachedTo = item.id;
        return { body: { uri: item.id, cid: item.extra.cid, commit: { cid: cid(`${item.id}#commit`), rev: item.id.split('/').pop() }, validationStatus: 'valid' } };
      },
    },
    {
      // "com.atproto.repo.deleteRecord" (https://docs.bsky.app/docs/api/com-atproto-repo-delete-record): repo (the
      // session's own, as createRecord), collection, rkey; answers {commit}, and nothing to delete is no error.
      method: 'POST',
      url: '/xrpc/com.atproto.repo.deleteRecord',
      operation: 'delete_comment',
      handle: ({ store, identity, body }) => {
        const repo = ownRepo(store, identity, required(field(body, 'repo'), 'repo'));
        const uri = `at://${repo}/${required(field(body, 'collection'), 'collection')}/${required(field(body, 'rkey'), 'rkey')}`;
        const item = store.find('bluesky', uri);
        if (!item) return { body: {} };
        store.remove(item);
        return { body: { commit: { cid: cid(`${uri}#delete`), rev: tid(store) } } };
      },
    },
    {
      method: 'GET',
      url: '/xrpc/com.atproto.repo.getRecord',
      operation: 'lookup',
      handle: ({ store, query }) => {
        const uri = `at://${query.repo}/${query.collection}/${query.rkey}`;
        const other = store.records.get(uri);
        if (other) return { body: { uri, cid: other.cid, value: JSON.parse(other.record) } };
        const item = byUri(store, uri);
        return { body: { uri: item.id, cid: item.extra.cid, value: recordOf(item) } };
      },
    },
    {
      // "com.atproto.repo.putRecord" (https://docs.bsky.app/docs/api/com-atproto-repo-put-record): writes a record
      // whole, creating or replacing it; `swapRecord` that is not the current cid is 400 InvalidSwap. The sandbox
      // stores threadgates only (putThreadgate).
      method: 'POST',
      url: '/xrpc/com.atproto.repo.putRecord',
      operation: 'hide_comment',
      handle: (ctx) => putThreadgate(ctx, ownRepo(ctx.store, ctx.identity, required(field(ctx.body, 'repo'), 'repo'))),
    },
    {
      method: 'GET',
      url: '/xrpc/com.atproto.repo.listRecords',
      operation: 'lookup',
      // "com.atproto.repo.listRecords" (https://docs.bsky.app/docs/api/com-atproto-repo-list-records): repo, collection,
      // limit 1-100 (default 50), cursor; newest first unless `reverse`; a cursor while more records remain.
      handle: ({ store, account, query }) => {
        const refusal = (message: string) => new PlatformRefusal(400, 'InvalidRequest', message);
        required(query.collection, 'collection', 'InvalidRequest');
        const records = store.postsOf('bluesky', account, query.repo);
        if (query.reverse === 'true') records.reverse();
        const { page, next } = pageOf(records, query.cursor, pageSize(query.limit, { min: 1, max: 100, default: 50 }, refusal), refusal);
        return { body: { records: page.map((item) => ({ uri: item.id, cid: item.extra.cid, value: recordOf(item) })), ...(next ? { cursor: next } : {}) } };
      },
    },
    {
      // "app.bsky.feed.getPosts" (https://docs.bsky.app/docs/api/app-bsky-feed-get-posts): `uris` (at-uris, at most 25,
      // the parameter repeated); "hydrated" PostViews with likeCount, repostCount, replyCount, quoteCount; a uri that
      // names no post is left out of the answer, not an error. Served by the AppView through the PDS.
      method: 'GET',
      url: '/xrpc/app.bsky.feed.getPosts',
      operation: 'metrics',
      handle: ({ store, query }) => {
        const asked = query.uris as unknown;
        const uris = (Array.isArray(asked) ? asked : asked === undefined ? [] : [asked]).map(String);
        if (uris.length === 0) throw new PlatformRefusal(400, 'InvalidRequest', 'Error: Params must have the property "uris"');
        if (uris.length > 25) throw new PlatformRefusal(400, 'InvalidRequest', 'Error: uris must not have more than 25 elements');
        const posts = uris.flatMap((uri) => {
          const item = store.find('bluesky', uri);
          if (!item) return [];
          const author = commentAuthor(store, item, repoDid);
          const counts = itemCounts(store, item);
          return [{ uri: item.id, cid: item.extra.cid, author: { did: author.id, handle: author.handle, displayName: author.displayName }, record: recordOf(item), indexedAt: item.createdAt, likeCount: counts.likes, repostCount: counts.shares, replyCount: counts.comments, quoteCount: counts.quotes }];
        });
        return { body: { posts } };
      },
    },
    {
      // "app.bsky.actor.getProfile" (https://docs.bsky.app/docs/api/app-bsky-actor-get-profile): `actor` (DID or handle);
      // a ProfileViewDetailed with followersCount, followsCount, postsCount; 400 "Profile not found" for an unknown actor.
      method: 'GET',
      url: '/xrpc/app.bsky.actor.getProfile',
      operation: 'metrics',
      handle: ({ store, query }) => {
        const actor = required(query.actor, 'actor', 'InvalidRequest');
        const profile = [...store.auth.identities.values()].find((identity) => identity.platform === 'bluesky' && (identity.platformAccountId === actor || identity.handle === actor));
        if (!profile) throw new PlatformRefusal(400, 'InvalidRequest', 'Profile not found');
        return {
          body: { did: profile.platformAccountId, handle: profile.handle, displayName: profile.displayName, followersCount: followerCount(store, profile), followsCount: 42, postsCount: store.postsOf('bluesky', profile.key).length },
        };
      },
    },
    {
      method: 'GET',
      url: '/xrpc/app.bsky.feed.getPostThread',
      operation: 'list_comments',
      handle: ({ store, query }) => ({ body: { thread: threadView(store, byUri(store, query.uri ?? '')) } }),
    },
  ],
};

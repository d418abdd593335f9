import { createHash } from 'node:crypto';
import { graphemeLength, utf8ByteLength } from '@app/platforms/content/text-length';
import type { SandboxIdentity } from '../auth/authority';
import { field, NewComment, PlatformDialect, PlatformRefusal, required, resetEpochSeconds, rootPostId } from '../dialect';
import type { SandboxItem, SandboxStore } from '../store';

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

function storeRecord(store: SandboxStore, item: Omit<SandboxItem, 'id' | 'createdAt' | 'extra' | 'media'> & { media?: SandboxItem['media'] }, repo: string, reply?: unknown): SandboxItem {
  const uri = `at://${repo}/${COLLECTION}/${tid(store)}`;
  return store.add({ ...item, id: uri, extra: { cid: cid(uri), record: JSON.stringify({ $type: COLLECTION, text: item.text, createdAt: new Date().toISOString(), ...(reply ? { reply } : {}) }) } });
}

function createComment(store: SandboxStore, { account, parent, text, author }: NewComment): SandboxItem {
  const parentRef = { uri: parent.id, cid: parent.extra.cid };
  const root = store.find('bluesky', rootPostId(parent));
  const reply = { root: { uri: root?.id ?? parent.id, cid: root?.extra.cid ?? parent.extra.cid }, parent: parentRef };
  return storeRecord(store, { platform: 'bluesky', account, owner: author, kind: 'comment', text, mediaUrls: [], parentId: parent.id, postId: rootPostId(parent), author }, `did:plc:${author}`, reply);
}

function recordOf(item: SandboxItem): unknown {
  return JSON.parse(item.extra.record);
}

function threadView(store: SandboxStore, item: SandboxItem): unknown {
  return {
    $type: 'app.bsky.feed.defs#threadViewPost',
    post: { uri: item.id, cid: item.extra.cid, author: { did: item.owner, handle: item.author }, record: recordOf(item), indexedAt: item.createdAt },
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

/** Bluesky PDS/AppView XRPC: createRecord, getRecord, listRecords, getPostThread. */
export const blueskyDialect: PlatformDialect = {
  platform: 'bluesky',
  error: xrpcError,
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
        let item: SandboxItem;
        if (reply) {
          const parent = byUri(store, String(field(field(reply, 'parent'), 'uri')));
          if (field(field(reply, 'parent'), 'cid') !== parent.extra.cid) throw new PlatformRefusal(400, 'InvalidRequest', 'reply.parent.cid does not match');
          item = createComment(store, { account, parent, text, author: repo });
        } else {
          item = storeRecord(store, { platform: 'bluesky', account, owner: repo, kind: 'post', text, mediaUrls: [], parentId: null, postId: null, author: repo }, repo);
        }
        return { body: { uri: item.id, cid: item.extra.cid, commit: { cid: cid(`${item.id}#commit`), rev: item.id.split('/').pop() }, validationStatus: 'valid' } };
      },
    },
    {
      method: 'GET',
      url: '/xrpc/com.atproto.repo.getRecord',
      operation: 'lookup',
      handle: ({ store, query }) => {
        const item = byUri(store, `at://${query.repo}/${query.collection}/${query.rkey}`);
        return { body: { uri: item.id, cid: item.extra.cid, value: recordOf(item) } };
      },
    },
    {
      method: 'GET',
      url: '/xrpc/com.atproto.repo.listRecords',
      operation: 'lookup',
      handle: ({ store, account, query }) => ({
        body: { records: store.postsOf('bluesky', account, query.repo).map((item) => ({ uri: item.id, cid: item.extra.cid, value: recordOf(item) })) },
      }),
    },
    {
      method: 'GET',
      url: '/xrpc/app.bsky.feed.getPostThread',
      operation: 'list_comments',
      handle: ({ store, query }) => ({ body: { thread: threadView(store, byUri(store, query.uri ?? '')) } }),
    },
  ],
};

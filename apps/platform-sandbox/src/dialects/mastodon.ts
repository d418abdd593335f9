import { existing, field, NewComment, PlatformDialect, PlatformRefusal, required, rootPostId } from '../dialect';
import type { SandboxItem, SandboxStore } from '../store';

const INSTANCE = 'https://mastodon.sandbox';

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function statusId(store: SandboxStore): string {
  return String(112_000_000_000_000_000n + BigInt(store.nextSeq()));
}

function createComment(store: SandboxStore, { account, parent, text, author }: NewComment): SandboxItem {
  return store.add({ platform: 'mastodon', account, owner: author, id: statusId(store), kind: 'comment', text, mediaUrls: [], parentId: parent.id, postId: rootPostId(parent), author, extra: {} });
}

function statusJson(item: SandboxItem) {
  return {
    id: item.id,
    created_at: item.createdAt,
    in_reply_to_id: item.parentId,
    visibility: 'public',
    content: `<p>${escapeHtml(item.text).replace(/\n/g, '<br />')}</p>`,
    uri: `${INSTANCE}/users/${item.author}/statuses/${item.id}`,
    url: `${INSTANCE}/@${item.author}/${item.id}`,
    account: { id: `acct-${item.author}`, username: item.author, acct: item.author },
  };
}

/** Doorkeeper's descriptions of a refused bearer token, as Mastodon answers them (401 {"error": ...}). */
const TOKEN_REFUSALS = { missing: 'The access token is invalid', unknown: 'The access token is invalid', revoked: 'The access token was revoked', expired: 'The access token expired' };

/** Mastodon REST API, honouring Idempotency-Key on status creation like the real server (per account). */
export const mastodonDialect: PlatformDialect = {
  platform: 'mastodon',
  error: (_status, _code, message) => ({ status: _status, body: { error: message } }),
  // https://docs.joinmastodon.org/methods/accounts/#verify_credentials: 401 {"error": "The access token is invalid"}
  unauthorized: (reason) => ({ status: 401, body: { error: TOKEN_REFUSALS[reason] } }),
  rateLimited: (resetAfterSeconds) => ({
    status: 429,
    headers: { 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': new Date(Date.now() + resetAfterSeconds * 1000).toISOString() },
    body: { error: 'Too many requests' },
  }),
  createComment,
  routes: [
    {
      method: 'POST',
      url: '/api/v1/statuses',
      operation: ({ body }) => (field(body, 'in_reply_to_id') ? 'comment' : 'publish'),
      handle: ({ store, account, body, headers }) => {
        const key = headers['idempotency-key'];
        const remembered = typeof key === 'string' ? store.idempotency.get(`${account}|${key}`) : undefined;
        if (remembered) return { body: statusJson(existing(store, 'mastodon', remembered)) };
        const text = required(field(body, 'status'), 'status');
        if ([...text].length > 500) throw new PlatformRefusal(422, undefined, 'Validation failed: Text character limit of 500 exceeded');
        const replyTo = field(body, 'in_reply_to_id');
        const item =
          typeof replyTo === 'string'
            ? createComment(store, { account, parent: existing(store, 'mastodon', replyTo), text, author: account })
            : store.add({ platform: 'mastodon', account, owner: account, id: statusId(store), kind: 'post', text, mediaUrls: [], parentId: null, postId: null, author: account, extra: {} });
        if (typeof key === 'string') store.idempotency.set(`${account}|${key}`, item.id);
        return { body: statusJson(item) };
      },
    },
    {
      method: 'GET',
      url: '/api/v1/statuses/:id/context',
      operation: 'list_comments',
      handle: ({ store, params }) => {
        existing(store, 'mastodon', params.id);
        return { body: { ancestors: [], descendants: store.commentsUnder('mastodon', params.id).map(statusJson) } };
      },
    },
    {
      method: 'GET',
      url: '/api/v1/accounts/verify_credentials',
      operation: 'lookup',
      // A CredentialAccount (https://docs.joinmastodon.org/entities/Account/#CredentialAccount): acct is the username for a local account.
      handle: ({ identity }) => {
        const { platformAccountId, handle, displayName } = identity!;
        return { body: { id: platformAccountId, username: handle, acct: handle, display_name: displayName, url: `${INSTANCE}/@${handle}` } };
      },
    },
    {
      method: 'GET',
      url: '/api/v1/accounts/:id/statuses',
      operation: 'lookup',
      handle: ({ store, params }) => {
        const owner = store.auth.byPlatformId('mastodon', params.id);
        if (!owner) throw new PlatformRefusal(404, undefined, 'Record not found');
        return { body: store.postsOf('mastodon', owner.key).map(statusJson) };
      },
    },
  ],
};

import type { ScopeTable } from './documented-scopes';

/**
 * Bluesky: accounts sign in with an app password, whose session acts for the whole account
 * (no OAuth scopes; only direct messages need an app password made for them, and we send
 * none: https://docs.bsky.app/docs/advanced-guides/oauth-client#app-passwords). Every row
 * needs a valid session and no scope.
 */
const XRPC = 'https://docs.bsky.app/docs/api';
const SESSION = [[]] as const;

export const BLUESKY_DOCUMENTED_SCOPES: ScopeTable = [
  { method: 'POST', path: '/xrpc/com.atproto.repo.uploadBlob', anyOf: SESSION, doc: `${XRPC}/com-atproto-repo-upload-blob` },
  { method: 'POST', path: '/xrpc/com.atproto.repo.createRecord', anyOf: SESSION, doc: `${XRPC}/com-atproto-repo-create-record` },
  { method: 'POST', path: '/xrpc/com.atproto.repo.deleteRecord', anyOf: SESSION, doc: `${XRPC}/com-atproto-repo-delete-record` },
  { method: 'POST', path: '/xrpc/com.atproto.repo.putRecord', anyOf: SESSION, doc: `${XRPC}/com-atproto-repo-put-record` },
  { method: 'GET', path: '/xrpc/com.atproto.repo.getRecord', anyOf: SESSION, doc: `${XRPC}/com-atproto-repo-get-record` },
  { method: 'GET', path: '/xrpc/com.atproto.repo.listRecords', anyOf: SESSION, doc: `${XRPC}/com-atproto-repo-list-records` },
  { method: 'GET', path: '/xrpc/app.bsky.feed.getPostThread', anyOf: SESSION, doc: `${XRPC}/app-bsky-feed-get-post-thread` },
  // Analytics: the posts' counts and the profile's followersCount (AppView reads, proxied by the PDS).
  { method: 'GET', path: '/xrpc/app.bsky.feed.getPosts', anyOf: SESSION, doc: `${XRPC}/app-bsky-feed-get-posts` },
  { method: 'GET', path: '/xrpc/app.bsky.actor.getProfile', anyOf: SESSION, doc: `${XRPC}/app-bsky-actor-get-profile` },
  { method: 'GET', path: '/xrpc/com.atproto.server.getSession', anyOf: SESSION, doc: `${XRPC}/com-atproto-server-get-session` },
];

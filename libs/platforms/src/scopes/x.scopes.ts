import type { ScopeTable } from './documented-scopes';

/**
 * X API v2, OAuth 2.0 user context: each reference page lists under "Authorization" the scopes
 * its endpoint requires (all of them). Media upload pages list media.write
 * (https://docs.x.com/x-api/media/quickstart/media-upload-chunked).
 */
const POST_SCOPES = ['tweet.read', 'tweet.write', 'users.read'];
const READ_SCOPES = ['tweet.read', 'users.read'];

export const X_DOCUMENTED_SCOPES: ScopeTable = [
  { method: 'POST', path: '/2/tweets', anyOf: [POST_SCOPES], doc: 'https://docs.x.com/x-api/posts/create-post' },
  { method: 'DELETE', path: '/2/tweets/{id}', anyOf: [POST_SCOPES], doc: 'https://docs.x.com/x-api/posts/delete-post' },
  { method: 'PUT', path: '/2/tweets/{tweet_id}/hidden', anyOf: [['tweet.read', 'tweet.moderate.write', 'users.read']], doc: 'https://docs.x.com/x-api/posts/hide-reply' },
  { method: 'GET', path: '/2/tweets/search/recent', anyOf: [READ_SCOPES], doc: 'https://docs.x.com/x-api/posts/search-recent-posts' },
  { method: 'GET', path: '/2/users/{id}/tweets', anyOf: [READ_SCOPES], doc: 'https://docs.x.com/x-api/users/get-posts' },
  // Metrics: tweet.fields=public_metrics ("Get Post by ID"; the fields, "Metrics", https://docs.x.com/x-api/fundamentals/metrics).
  { method: 'GET', path: '/2/tweets/{id}', anyOf: [READ_SCOPES], doc: 'https://docs.x.com/x-api/posts/get-post-by-id' },
  { method: 'GET', path: '/2/users/me', anyOf: [READ_SCOPES], doc: 'https://docs.x.com/x-api/users/get-my-user' },
  { method: 'POST', path: '/2/media/upload', anyOf: [['media.write']], doc: 'https://docs.x.com/x-api/media/upload-media' },
  { method: 'GET', path: '/2/media/upload', anyOf: [['media.write']], doc: 'https://docs.x.com/x-api/media/get-media-upload-status' },
  { method: 'POST', path: '/2/media/upload/initialize', anyOf: [['media.write']], doc: 'https://docs.x.com/x-api/media/initialize-media-upload' },
  { method: 'POST', path: '/2/media/upload/{id}/append', anyOf: [['media.write']], doc: 'https://docs.x.com/x-api/media/append-media-upload' },
  { method: 'POST', path: '/2/media/upload/{id}/finalize', anyOf: [['media.write']], doc: 'https://docs.x.com/x-api/media/finalize-media-upload' },
  { method: 'POST', path: '/2/media/metadata', anyOf: [['media.write']], doc: 'https://docs.x.com/x-api/media/create-media-metadata' },
];

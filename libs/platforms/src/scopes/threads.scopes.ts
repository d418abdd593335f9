import type { ScopeTable } from './documented-scopes';

/** Threads API: each page lists the permissions its endpoints need (https://developers.facebook.com/docs/threads). */
const DOCS = 'https://developers.facebook.com/docs/threads';
const PUBLISH = ['threads_basic', 'threads_content_publish'];

export const THREADS_DOCUMENTED_SCOPES: ScopeTable = [
  { method: 'POST', path: '/{version}/{threads-user-id}/threads', anyOf: [PUBLISH], doc: `${DOCS}/posts` },
  { method: 'POST', path: '/{version}/{threads-user-id}/threads_publish', anyOf: [PUBLISH], doc: `${DOCS}/posts` },
  { method: 'GET', path: '/{version}/{threads-user-id}/threads', anyOf: [['threads_basic']], doc: `${DOCS}/threads-media#retrieve-a-list-of-all-a-user-s-threads` },
  { method: 'GET', path: '/{version}/{threads-container-id}', anyOf: [PUBLISH], doc: `${DOCS}/troubleshooting#publishing-does-not-return-a-media-id` },
  { method: 'GET', path: '/{version}/{threads-media-id}', anyOf: [['threads_basic']], doc: `${DOCS}/threads-media#retrieve-a-single-threads-media-object` },
  { method: 'GET', path: '/{version}/{threads-media-id}/conversation', anyOf: [['threads_basic', 'threads_read_replies']], doc: `${DOCS}/reply-management#retrieve-a-list-of-all-replies` },
  { method: 'POST', path: '/{version}/{threads-reply-id}/manage_reply', anyOf: [['threads_basic', 'threads_manage_replies']], doc: `${DOCS}/reply-management#hide-replies` },
  { method: 'DELETE', path: '/{version}/{threads-media-id}', anyOf: [['threads_basic', 'threads_delete']], doc: `${DOCS}/posts/delete-posts` },
  { method: 'GET', path: '/{version}/me', anyOf: [['threads_basic']], doc: `${DOCS}/threads-profiles` },
  // Analytics: "threads_manage_insights — Required for making GET calls to insights endpoints" (Threads Insights API, Permissions).
  { method: 'GET', path: '/{version}/{threads-media-id}/insights', anyOf: [['threads_basic', 'threads_manage_insights']], doc: `${DOCS}/insights#media-insights` },
  { method: 'GET', path: '/{version}/{threads-user-id}/threads_insights', anyOf: [['threads_basic', 'threads_manage_insights']], doc: `${DOCS}/insights#user-insights` },
];

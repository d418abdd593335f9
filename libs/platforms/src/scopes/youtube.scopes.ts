import type { ScopeTable } from './documented-scopes';

/**
 * YouTube Data API v3: each method's page lists under "Authorization" the scopes any one of
 * which suffices (https://developers.google.com/youtube/v3/guides/auth/server-side-web-apps#identify-access-scopes).
 */
const DOCS = 'https://developers.google.com/youtube/v3/docs';
const scope = (name: string) => `https://www.googleapis.com/auth/${name}`;
const FORCE_SSL = [[scope('youtube.force-ssl')]];
const UPLOAD = [[scope('youtube.upload')], [scope('youtube')], [scope('youtube.force-ssl')], [scope('youtubepartner')]];
const READ = [[scope('youtube.force-ssl')], [scope('youtube.readonly')], [scope('youtube')], [scope('youtubepartner')]];

export const YOUTUBE_DOCUMENTED_SCOPES: ScopeTable = [
  { method: 'POST', path: '/upload/youtube/v3/videos', anyOf: UPLOAD, doc: `${DOCS}/videos/insert#auth` },
  { method: 'PUT', path: '/upload/youtube/v3/videos', anyOf: UPLOAD, doc: `${DOCS}/videos/insert#auth` },
  { method: 'GET', path: '/youtube/v3/playlistItems', anyOf: READ, doc: `${DOCS}/playlistItems/list#auth` },
  // Analytics: part=statistics of videos.list (and of channels.list for subscriberCount).
  { method: 'GET', path: '/youtube/v3/videos', anyOf: READ, doc: `${DOCS}/videos/list#auth` },
  { method: 'GET', path: '/youtube/v3/channels', anyOf: READ, doc: `${DOCS}/channels/list#auth` },
  { method: 'GET', path: '/youtube/v3/commentThreads', anyOf: FORCE_SSL, doc: `${DOCS}/commentThreads/list#auth` },
  { method: 'POST', path: '/youtube/v3/commentThreads', anyOf: FORCE_SSL, doc: `${DOCS}/commentThreads/insert#auth` },
  { method: 'POST', path: '/youtube/v3/comments', anyOf: FORCE_SSL, doc: `${DOCS}/comments/insert#auth` },
  { method: 'POST', path: '/youtube/v3/comments/setModerationStatus', anyOf: FORCE_SSL, doc: `${DOCS}/comments/setModerationStatus#auth` },
  { method: 'DELETE', path: '/youtube/v3/comments', anyOf: FORCE_SSL, doc: `${DOCS}/comments/delete#auth` },
];

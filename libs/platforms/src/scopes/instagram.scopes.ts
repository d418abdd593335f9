import type { ScopeTable } from './documented-scopes';

/**
 * Instagram API with Facebook Login: the calls are made with the Facebook User access token
 * of a Facebook Login for Business, and each reference page lists its permissions
 * (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference).
 * pages_read_engagement is listed throughout: the IG User is reached through its Page.
 */
const REFERENCE = 'https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference';
const PUBLISH = ['instagram_basic', 'instagram_content_publish', 'pages_read_engagement'];
const READ = ['instagram_basic', 'pages_read_engagement'];
const COMMENTS = ['instagram_basic', 'instagram_manage_comments', 'pages_read_engagement'];

export const INSTAGRAM_DOCUMENTED_SCOPES: ScopeTable = [
  { method: 'POST', path: '/{version}/{ig-user-id}/media', anyOf: [PUBLISH], doc: `${REFERENCE}/ig-user/media#creating` },
  { method: 'POST', path: '/{version}/{ig-user-id}/media_publish', anyOf: [PUBLISH], doc: `${REFERENCE}/ig-user/media_publish` },
  { method: 'GET', path: '/{version}/{ig-user-id}/media', anyOf: [READ], doc: `${REFERENCE}/ig-user/media#reading` },
  { method: 'GET', path: '/{version}/{ig-container-id}', anyOf: [PUBLISH], doc: `${REFERENCE}/ig-container` },
  { method: 'GET', path: '/{version}/{ig-media-id}', anyOf: [READ], doc: `${REFERENCE}/ig-media#reading` },
  { method: 'GET', path: '/{version}/{ig-media-id}/comments', anyOf: [COMMENTS], doc: `${REFERENCE}/ig-media/comments#reading` },
  { method: 'POST', path: '/{version}/{ig-media-id}/comments', anyOf: [COMMENTS], doc: `${REFERENCE}/ig-media/comments#creating` },
  { method: 'POST', path: '/{version}/{ig-comment-id}/replies', anyOf: [COMMENTS], doc: `${REFERENCE}/ig-comment/replies#creating` },
  { method: 'POST', path: '/{version}/{ig-comment-id}', anyOf: [COMMENTS], doc: `${REFERENCE}/ig-comment#updating` },
  { method: 'DELETE', path: '/{version}/{ig-comment-id}', anyOf: [COMMENTS], doc: `${REFERENCE}/ig-comment#deleting` },
  // Analytics: media insights need instagram_manage_insights ("Instagram Media Insights", Permissions); the IG User's
  // followers_count is one of its fields (instagram_basic, pages_read_engagement).
  { method: 'GET', path: '/{version}/{ig-media-id}/insights', anyOf: [['instagram_basic', 'instagram_manage_insights', 'pages_read_engagement']], doc: 'https://developers.facebook.com/docs/instagram-platform/reference/instagram-media/insights' },
  { method: 'GET', path: '/{version}/{ig-user-id}', anyOf: [READ], doc: `${REFERENCE}/ig-user#reading` },
  // Sign-in (Facebook Login): the user, then the pages with their linked IG User (instagram_business_account).
  { method: 'GET', path: '/{version}/me', anyOf: [[]], doc: 'https://developers.facebook.com/docs/graph-api/reference/user#Reading' },
  { method: 'GET', path: '/{version}/me/accounts', anyOf: [['instagram_basic', 'pages_show_list']], doc: `${REFERENCE}/page#read` },
];

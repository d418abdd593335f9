import type { ScopeTable } from './documented-scopes';

/**
 * Facebook Pages on the Graph API: each reference page lists the permissions of a Page access
 * token (its "Permissions" / "Requirements" section). /{version} is the Graph API version.
 */
const PUBLISH = ['pages_manage_posts', 'pages_read_engagement'];
const PUBLISH_MEDIA = ['pages_show_list', 'pages_manage_posts', 'pages_read_engagement'];
const ENGAGE = ['pages_manage_engagement', 'pages_read_user_content'];
const READ_COMMENTS = ['pages_read_engagement', 'pages_read_user_content'];

export const FACEBOOK_DOCUMENTED_SCOPES: ScopeTable = [
  { method: 'POST', path: '/{version}/{page-id}/feed', anyOf: [PUBLISH], doc: 'https://developers.facebook.com/docs/graph-api/reference/page/feed#publish' },
  { method: 'GET', path: '/{version}/{page-id}/feed', anyOf: [['pages_read_engagement']], doc: 'https://developers.facebook.com/docs/graph-api/reference/page/feed#read' },
  { method: 'POST', path: '/{version}/{page-id}/photos', anyOf: [PUBLISH], doc: 'https://developers.facebook.com/docs/graph-api/reference/page/photos#Creating' },
  { method: 'POST', path: '/{version}/{page-id}/videos', anyOf: [PUBLISH_MEDIA], doc: 'https://developers.facebook.com/docs/video-api/guides/publishing' },
  { method: 'POST', path: '/{version}/{page-id}/video_reels', anyOf: [PUBLISH_MEDIA], doc: 'https://developers.facebook.com/docs/video-api/guides/reels-publishing' },
  { method: 'POST', path: '/{version}/{page-id}/video_stories', anyOf: [PUBLISH_MEDIA], doc: 'https://developers.facebook.com/docs/page-stories-api' },
  { method: 'POST', path: '/{version}/{page-id}/photo_stories', anyOf: [PUBLISH_MEDIA], doc: 'https://developers.facebook.com/docs/page-stories-api' },
  { method: 'POST', path: '/{version}/{object-id}/comments', anyOf: [ENGAGE], doc: 'https://developers.facebook.com/docs/graph-api/reference/object/comments#publish' },
  { method: 'GET', path: '/{version}/{object-id}/comments', anyOf: [READ_COMMENTS], doc: 'https://developers.facebook.com/docs/graph-api/reference/object/comments#read' },
  { method: 'POST', path: '/{version}/{comment-id}', anyOf: [ENGAGE], doc: 'https://developers.facebook.com/docs/graph-api/reference/comment#updating' },
  { method: 'DELETE', path: '/{version}/{comment-id}', anyOf: [ENGAGE], doc: 'https://developers.facebook.com/docs/graph-api/reference/comment#deleting' },
  // Analytics: a Page post's insights need read_insights with the Page token ("Page Insights", Permissions); the Page's
  // followers_count is a Page field, and a post's shares and comments summary Page Post fields, read with pages_read_engagement.
  { method: 'GET', path: '/{version}/{page-post-id}/insights', anyOf: [['read_insights', 'pages_read_engagement']], doc: 'https://developers.facebook.com/docs/graph-api/reference/insights#permissions' },
  { method: 'GET', path: '/{version}/{page-id}', anyOf: [['pages_read_engagement']], doc: 'https://developers.facebook.com/docs/graph-api/reference/page#Reading' },
  { method: 'GET', path: '/{version}/{page-post-id}', anyOf: [['pages_read_engagement']], doc: 'https://developers.facebook.com/docs/graph-api/reference/pagepost#read' },
  // Sign-in: the user's own id and name need no permission beyond the default public_profile; their pages need pages_show_list.
  { method: 'GET', path: '/{version}/me', anyOf: [[]], doc: 'https://developers.facebook.com/docs/graph-api/reference/user#Reading' },
  { method: 'GET', path: '/{version}/me/accounts', anyOf: [['pages_show_list']], doc: 'https://developers.facebook.com/docs/graph-api/reference/user/accounts' },
];

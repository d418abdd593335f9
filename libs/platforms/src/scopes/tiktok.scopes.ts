import type { ScopeTable } from './documented-scopes';

/** TikTok: each API reference page names its scope under "Scopes" (https://developers.tiktok.com/doc/tiktok-api-scopes). */
const DOC = 'https://developers.tiktok.com/doc';

export const TIKTOK_DOCUMENTED_SCOPES: ScopeTable = [
  { method: 'POST', path: '/v2/post/publish/creator_info/query/', anyOf: [['video.publish']], doc: `${DOC}/content-posting-api-reference-query-creator-info` },
  { method: 'POST', path: '/v2/post/publish/video/init/', anyOf: [['video.publish']], doc: `${DOC}/content-posting-api-reference-direct-post` },
  { method: 'POST', path: '/v2/post/publish/content/init/', anyOf: [['video.publish']], doc: `${DOC}/content-posting-api-reference-photo-post` },
  { method: 'POST', path: '/v2/post/publish/status/fetch/', anyOf: [['video.publish'], ['video.upload']], doc: `${DOC}/content-posting-api-reference-get-video-status` },
  { method: 'POST', path: '/v2/video/list/', anyOf: [['video.list']], doc: `${DOC}/tiktok-api-v2-video-list` },
  // Analytics: a video's counts (Query Videos, video.list). The user's follower_count is a field of Get User Info that
  // needs user.info.stats: without it TikTok leaves the field out (the endpoint itself needs only user.info.basic).
  { method: 'POST', path: '/v2/video/query/', anyOf: [['video.list']], doc: `${DOC}/tiktok-api-v2-video-query` },
  { method: 'GET', path: '/v2/user/info/', anyOf: [['user.info.basic']], doc: `${DOC}/tiktok-api-v2-get-user-info` },
];

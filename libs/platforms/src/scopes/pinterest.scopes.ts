import type { ScopeTable } from './documented-scopes';

/** Pinterest API v5: each operation's reference lists its OAuth scopes under "Authorizations" (https://developers.pinterest.com/docs/api/v5/). */
const DOCS = 'https://developers.pinterest.com/docs/api/v5';

export const PINTEREST_DOCUMENTED_SCOPES: ScopeTable = [
  { method: 'POST', path: '/v5/pins', anyOf: [['boards:read', 'pins:write']], doc: `${DOCS}/pins-create` },
  { method: 'GET', path: '/v5/boards/{board_id}/pins', anyOf: [['boards:read', 'pins:read']], doc: `${DOCS}/boards-list_pins` },
  { method: 'POST', path: '/v5/media', anyOf: [['pins:write']], doc: `${DOCS}/media-create` },
  { method: 'GET', path: '/v5/media/{media_id}', anyOf: [['pins:read']], doc: `${DOCS}/media-get` },
  // Analytics: "Get Pin analytics" (boards:read, pins:read); follower_count is a field of "Get user account".
  { method: 'GET', path: '/v5/pins/{pin_id}/analytics', anyOf: [['boards:read', 'pins:read']], doc: `${DOCS}/pins-analytics` },
  { method: 'GET', path: '/v5/user_account', anyOf: [['user_accounts:read']], doc: `${DOCS}/user_account-get` },
  { method: 'GET', path: '/v5/boards', anyOf: [['boards:read']], doc: `${DOCS}/boards-list` },
];

import type { ScopeTable } from './documented-scopes';

/**
 * Mastodon: each method's page names its OAuth scope under "Headers"/"OAuth"; a parent scope
 * (`read`, `write`) grants every granular one under it ("OAuth Scopes",
 * https://docs.joinmastodon.org/api/oauth-scopes/).
 */
const write = (scope: string) => [[scope], ['write']];
const read = (scope: string) => [[scope], ['read']];

export const MASTODON_DOCUMENTED_SCOPES: ScopeTable = [
  { method: 'POST', path: '/api/v2/media', anyOf: write('write:media'), doc: 'https://docs.joinmastodon.org/methods/media/#v2' },
  { method: 'GET', path: '/api/v1/media/{id}', anyOf: write('write:media'), doc: 'https://docs.joinmastodon.org/methods/media/#get' },
  { method: 'POST', path: '/api/v1/statuses', anyOf: write('write:statuses'), doc: 'https://docs.joinmastodon.org/methods/statuses/#create' },
  { method: 'DELETE', path: '/api/v1/statuses/{id}', anyOf: write('write:statuses'), doc: 'https://docs.joinmastodon.org/methods/statuses/#delete' },
  // Analytics: a Status carries replies_count, reblogs_count, favourites_count.
  { method: 'GET', path: '/api/v1/statuses/{id}', anyOf: read('read:statuses'), doc: 'https://docs.joinmastodon.org/methods/statuses/#get' },
  { method: 'GET', path: '/api/v1/statuses/{id}/context', anyOf: read('read:statuses'), doc: 'https://docs.joinmastodon.org/methods/statuses/#context' },
  { method: 'GET', path: '/api/v1/accounts/verify_credentials', anyOf: read('read:accounts'), doc: 'https://docs.joinmastodon.org/methods/accounts/#verify_credentials' },
  { method: 'GET', path: '/api/v1/accounts/{id}/statuses', anyOf: read('read:statuses'), doc: 'https://docs.joinmastodon.org/methods/accounts/#statuses' },
];

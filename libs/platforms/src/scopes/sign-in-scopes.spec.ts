import { PLATFORMS } from '@app/contracts';
import { PlatformAuthRegistry } from '../auth/auth-registry';
import { X_SCOPES } from '../auth/platforms/x.auth';
import { MASTODON_SCOPES } from '../auth/platforms/mastodon.auth';
import { DOCUMENTED_SCOPES, documentedEndpoint, grantsEndpoint, missingScopes, pathShape } from '.';

/**
 * The scopes each sign-in asks for cover what the platform's documentation requires of every
 * endpoint we call (the per-platform tables in this folder). A sign-in that forgot one (X
 * without media.write, Mastodon without write:media) would have every such call refused by
 * the real platform; here it fails the build. That the tables name every endpoint the
 * connectors call is proven against the sandbox (sandbox-scope-table.spec.ts: every route it
 * plays has a row, and it refuses a route without one; connector-scopes.int-spec.ts).
 */
const auth = new PlatformAuthRegistry();

describe.each(PLATFORMS)('%s', (platform) => {
  const table = DOCUMENTED_SCOPES[platform];

  it('has a row for each endpoint, each with its reference page', () => {
    expect(table.length).toBeGreaterThan(0);
    for (const row of table) {
      expect(row.doc).toMatch(/^https:\/\/[^/]+\/.+/);
      expect(row.anyOf.length).toBeGreaterThan(0);
      // One row per endpoint: the same method and path twice would make the table say two things.
      expect(table.filter((other) => other.method === row.method && other.path === row.path)).toHaveLength(1);
    }
  });

  it('asks at sign-in for the scopes every documented endpoint requires', () => {
    const asked = auth.get(platform).scopes;
    const uncovered = table.filter((row) => !grantsEndpoint(row, asked)).map((row) => `${row.method} ${row.path} needs ${row.anyOf.map((set) => set.join('+')).join(' or ')}`);
    expect(uncovered).toEqual([]);
  });
});

describe('the coverage check', () => {
  const row = (platform: 'x' | 'mastodon', method: string, path: string) => {
    const found = documentedEndpoint(DOCUMENTED_SCOPES[platform], method, path);
    if (!found) throw new Error(`no row for ${method} ${path}`);
    return found;
  };

  it('fails a sign-in without the media scopes (the bug it guards against)', () => {
    const upload = row('x', 'POST', '/2/media/upload');
    expect(grantsEndpoint(upload, X_SCOPES)).toBe(true);
    expect(grantsEndpoint(upload, X_SCOPES.filter((scope) => scope !== 'media.write'))).toBe(false);
    expect(missingScopes(upload, ['tweet.read', 'tweet.write'])).toEqual(['media.write']);
    const mastodonUpload = row('mastodon', 'POST', '/api/v2/media');
    expect(grantsEndpoint(mastodonUpload, MASTODON_SCOPES.filter((scope) => scope !== 'write:media'))).toBe(false);
    // Mastodon's parent scope grants every write:* one.
    expect(grantsEndpoint(mastodonUpload, ['write'])).toBe(true);
  });

  it('finds rows by their path with the parameters routers write (:id) or the reference writes ({id})', () => {
    expect(pathShape('/2/tweets/:id/hidden')).toBe(pathShape('/2/tweets/{tweet_id}/hidden'));
    expect(row('x', 'PUT', '/2/tweets/:id/hidden').path).toBe('/2/tweets/{tweet_id}/hidden');
    expect(row('x', 'GET', '/2/users/me').path).toBe('/2/users/me');
    expect(documentedEndpoint(DOCUMENTED_SCOPES.x, 'PATCH', '/2/tweets')).toBeUndefined();
    // Two documented endpoints of one shape (a container or a media on Graph's /{id}): the path must say which.
    expect(documentedEndpoint(DOCUMENTED_SCOPES.instagram, 'GET', '/:version/:node')).toBeUndefined();
    expect(documentedEndpoint(DOCUMENTED_SCOPES.instagram, 'GET', '/{version}/{ig-container-id}')?.anyOf).toEqual([['instagram_basic', 'instagram_content_publish', 'pages_read_engagement']]);
  });
});

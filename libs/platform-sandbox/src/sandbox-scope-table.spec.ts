import { PLATFORMS } from '@app/contracts';
import { DOCUMENTED_SCOPES, documentedEndpoint } from '@app/platforms/scopes';
import { SIGN_IN } from './auth/platforms';
import { DIALECTS } from './dialects';

/**
 * The sandbox checks each token against the documentation's scope table
 * (libs/platforms/src/scopes): every route that takes a token has its row (a route without one
 * would answer 500, so no connector test could pass through it), and every row is an endpoint
 * the sandbox plays (the table names nothing the connectors do not call).
 */
describe.each(PLATFORMS)('%s', (platform) => {
  const routes = [...DIALECTS[platform].routes, ...SIGN_IN[platform].routes].filter((route) => (route.auth ?? 'bearer') === 'bearer');
  /** What each route plays, as documented paths: the ones it names, else its url. */
  const played = routes.flatMap((route) => (route.documents ? route.documents.paths : [route.url]).map((path) => ({ method: route.method, path })));

  it('has a documented row for every route that takes a token', () => {
    const undocumented = played.filter(({ method, path }) => !documentedEndpoint(DOCUMENTED_SCOPES[platform], method, path)).map(({ method, path }) => `${method} ${path}`);
    expect(undocumented).toEqual([]);
  });

  it('plays every row of the table', () => {
    const rows = new Set(played.map(({ method, path }) => documentedEndpoint(DOCUMENTED_SCOPES[platform], method, path)));
    const unplayed = DOCUMENTED_SCOPES[platform].filter((row) => !rows.has(row)).map((row) => `${row.method} ${row.path}`);
    expect(unplayed).toEqual([]);
  });
});

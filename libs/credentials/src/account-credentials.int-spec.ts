import { AccountStore, TokenCipher } from '@app/accounts';
import { createPool } from '@app/database';
import { PlatformAuthRegistry, sandboxEndpoints } from '@app/platforms';
import { createTestDatabase, sqlOf, TestDatabase } from '@app/testing';
import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import { RunningPlatformSandbox, startPlatformSandbox } from '@app/platform-sandbox';
import { connectSandboxAccount } from '../../../tools/local/connect-sandbox-account';
import { AccountCredentials, isUnavailable, ReauthReporter } from './account-credentials';
import { OAuthApps } from './oauth-apps';

/**
 * Credentials kept alive against the sandbox's X (access tokens live two hours; refresh
 * tokens rotate, so a second refresh with the same refresh token is refused — which is why
 * two replicas refreshing at once would lose the account without the per-account lock).
 */
let db: TestDatabase;
let sandbox: RunningPlatformSandbox;
const key = randomBytes(32);
const reports: Array<{ accountId: string; reason: string }> = [];
const reporter: ReauthReporter = { requireReauth: async (accountId, reason) => void reports.push({ accountId, reason }) };
const pools: Pool[] = [];

/** One replica: its own pool, store and keeper over the same database. */
function replica(): AccountCredentials {
  const pool = createPool(db.url, 2);
  pools.push(pool);
  const store = new AccountStore(pool, new TokenCipher(key));
  const auth = new PlatformAuthRegistry({ endpoints: sandboxEndpoints(sandbox.url), retry: { baseDelayMs: 1, maxDelayMs: 2 } });
  const apps = new OAuthApps({ apps: { x: { clientId: 'x-client', clientSecret: 'x-secret' } }, callbackUrl: 'https://api.example.test/cb' }, store, auth);
  return new AccountCredentials(store, auth, apps, reporter, { refreshAheadMs: 10 * 60_000, now: () => new Date(Date.now() + clockAhead) });
}
let clockAhead = 0;

beforeAll(async () => {
  db = await createTestDatabase();
  sandbox = await startPlatformSandbox();
});
afterAll(async () => {
  for (const pool of pools) await pool.end();
  await sandbox.close();
  await db.drop();
});

async function xAccount(handle: string) {
  const workspace = await db.pool.query<{ id: string }>("INSERT INTO workspaces (id, name) VALUES (gen_random_uuid(), 'w') RETURNING id");
  return connectSandboxAccount(new AccountStore(db.pool, new TokenCipher(key)), sandbox, { workspaceId: workspace.rows[0].id, platform: 'x', handle });
}

const refreshCalls = () => sandbox.control.requestCount({ platform: 'x', operation: 'sign_in' });

it('two replicas refreshing the same account at once make one refresh, and the account stays connected', async () => {
  const account = await xAccount('@racer');
  const [first, second] = [replica(), replica()];
  const stale = await first.acting(account.id);
  if (isUnavailable(stale)) throw new Error('the account should act');
  const before = refreshCalls();
  const [a, b] = await Promise.all([first.renew(account.id, stale.credentials.accessToken), second.renew(account.id, stale.credentials.accessToken)]);
  expect(refreshCalls() - before).toBe(1);
  expect(a.renewed && b.renewed).toBe(true);
  const renewed = await second.acting(account.id);
  if (isUnavailable(renewed)) throw new Error('the account should still act');
  expect(renewed.credentials.accessToken).not.toBe(stale.credentials.accessToken);
  expect(reports).toEqual([]);
  // The renewed token works on the platform.
  const tweet = await fetch(`${sandbox.url}/x/2/tweets`, { method: 'POST', headers: { authorization: `Bearer ${renewed.credentials.accessToken}`, 'content-type': 'application/json' }, body: '{"text":"still here"}' });
  expect(tweet.status).toBe(201);
});

it('renews a token about to end before using it, keeping the refresh token the platform rotated', async () => {
  const account = await xAccount('@ahead');
  const keeper = replica();
  const before = refreshCalls();
  clockAhead = 2 * 3600_000 - 5 * 60_000; // five minutes before the two-hour token ends
  try {
    const acting = await keeper.acting(account.id);
    expect(isUnavailable(acting)).toBe(false);
    expect(refreshCalls() - before).toBe(1);
  } finally {
    clockAhead = 0;
  }
});

it('a refused call is made once more after a renewal; a refused renewal marks the account for re-authorisation', async () => {
  const account = await xAccount('@revoked');
  const keeper = replica();
  let calls = 0;
  sandbox.control.advanceClock(3 * 3600); // the access token has ended on the platform
  const result = await keeper.run(account.id, async (acting) => {
    calls++;
    const answer = await fetch(`${sandbox.url}/x/2/users/me`, { headers: { authorization: `Bearer ${acting.credentials.accessToken}` } });
    return answer.status === 200 ? { status: 'published' as const } : { status: 'failed' as const, error: { code: 'access_token_expired', message: 'expired', retryable: false } };
  });
  expect(calls).toBe(2);
  expect(result).toEqual({ status: 'published' });

  sandbox.control.revokeAccount('x:revoked');
  const refused = await keeper.run(account.id, async () => ({ status: 'failed' as const, error: { code: 'access_token_invalid', message: 'revoked', retryable: false } }));
  expect(refused).toEqual({ unavailable: expect.objectContaining({ code: 'reauth_required' }) });
  expect(reports).toEqual([{ accountId: account.id, reason: expect.any(String) }]);
});

it('the accounts one moment acts as are read in one statement, each with its own credentials', async () => {
  const accounts = [await xAccount('@moment_one'), await xAccount('@moment_two'), await xAccount('@moment_three')];
  const keeper = replica();
  const pool = pools[pools.length - 1];
  const query = jest.spyOn(pool, 'query');
  try {
    const acting = await Promise.all([...accounts.map((a) => keeper.acting(a.id)), keeper.acting('00000000-0000-4000-8000-000000000000')]);
    const secretsReads = query.mock.calls.filter((call) => sqlOf(call).text.includes('FROM accounts'));
    expect(secretsReads).toHaveLength(1);
    expect(acting.slice(0, 3).map((a) => (isUnavailable(a) ? null : a.identity.handle))).toEqual(['@moment_one', '@moment_two', '@moment_three']);
    // An account the store does not know is not acted as, whatever its neighbours are.
    expect(acting[3]).toEqual({ unavailable: expect.objectContaining({ code: 'account_disconnected' }) });
  } finally {
    query.mockRestore();
  }
});

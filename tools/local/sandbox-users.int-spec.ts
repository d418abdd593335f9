import { randomBytes } from 'node:crypto';
import { AccountStore, TokenCipher } from '@app/accounts';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { RunningPlatformSandbox, startPlatformSandbox } from '@app/platform-sandbox';
import { forgetSandboxAppRegistrations } from './sandbox-users';

/**
 * npm start restarted: the sandbox is a new Mastodon instance that knows no app, so the app
 * registered on the last run's sandbox must not be offered again (its consent page would answer
 * 401 invalid_client); an app on a real instance stays registered.
 */
describe('forgetSandboxAppRegistrations (real Postgres)', () => {
  let db: TestDatabase;
  let sandbox: RunningPlatformSandbox;
  let accounts: AccountStore;

  beforeAll(async () => {
    [db, sandbox] = await Promise.all([createTestDatabase(), startPlatformSandbox()]);
    accounts = new AccountStore(db.pool, new TokenCipher(randomBytes(32)));
  });
  afterAll(async () => {
    await sandbox?.close();
    await db?.drop();
  });

  it("forgets the apps registered on the sandbox's instances, and only those", async () => {
    const app = { clientId: 'old-client', clientSecret: 'old-secret', redirectUri: 'http://localhost:3000/api/v1/accounts/connect/callback' };
    await accounts.saveRegisteredApp('mastodon', `${sandbox.url}/mastodon`, app);
    await accounts.saveRegisteredApp('mastodon', 'https://mastodon.social', app);
    // A url that merely begins with the sandbox's (another port) is another server.
    const neighbour = `${sandbox.url}0/mastodon`;
    await accounts.saveRegisteredApp('mastodon', neighbour, app);

    expect(await forgetSandboxAppRegistrations(accounts, sandbox)).toBe(1);
    expect(await accounts.registeredApp('mastodon', `${sandbox.url}/mastodon`)).toBeNull();
    expect(await accounts.registeredApp('mastodon', 'https://mastodon.social')).toEqual(app);
    expect(await accounts.registeredApp('mastodon', neighbour)).toEqual(app);
  });
});

import { randomBytes } from 'node:crypto';
import type { Platform } from '@app/contracts';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { AccountStore } from './account-store';
import { TokenCipher } from './token-cipher';

describe('AccountStore (real Postgres)', () => {
  let db: TestDatabase;
  let store: AccountStore;

  beforeAll(async () => {
    db = await createTestDatabase();
    store = new AccountStore(db.pool, new TokenCipher(randomBytes(32)));
  });
  afterAll(() => db.drop());

  const workspace = async () => (await db.pool.query<{ id: string }>("INSERT INTO workspaces (id, name) VALUES (gen_random_uuid(), 'w') RETURNING id")).rows[0].id;
  const connect = (workspaceId: string, platform: Platform, handle: string) =>
    store.saveSignedIn(workspaceId, {
      platform,
      identity: { platformAccountId: `${platform}-${handle}`, handle, displayName: handle, instanceUrl: null, attributes: {} },
      credentials: { kind: 'static', accessToken: 'a-token', refreshToken: null, expiresAt: null, refreshTokenExpiresAt: null, scopes: [] },
    });

  it('lists the accounts of several workspaces in one statement, each as list() gives it, a workspace without any as empty', async () => {
    const [a, b, none] = [await workspace(), await workspace(), await workspace()];
    await connect(a, 'x', '@zed');
    await connect(b, 'mastodon', '@bee');
    await connect(a, 'facebook', '@page');
    await connect(a, 'x', '@Alpha');
    const query = jest.spyOn(db.pool, 'query');
    const lists = await store.listOfWorkspaces([a, none, b]);
    expect(query).toHaveBeenCalledTimes(1);
    query.mockRestore();
    expect(lists.get(a)!.map((account) => `${account.platform}:${account.handle}`)).toEqual(['facebook:@page', 'x:@Alpha', 'x:@zed']);
    expect(lists.get(b)!.map((account) => account.handle)).toEqual(['@bee']);
    expect(lists.get(none)).toEqual([]);
    expect(await store.list(a)).toEqual(lists.get(a));
  });
});

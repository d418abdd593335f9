import { TestStack } from '../../../../test/support/test-stack';

/**
 * A handle is a label its user may change; the platform identity is the account. X lets a
 * user rename (@acme → @acme_old) and another user take the freed name: both identities
 * signing in to one workspace must be stored (not a 500 on the handle), a reference by the
 * shared handle answers ambiguous_account with both candidates, and the renamed account
 * takes its new handle at its next sign-in, after which the reference is unique again.
 */
let stack: TestStack;
let key: string;
let workspaceId: string;

beforeAll(async () => {
  // The draft's answer waits for the read model, which a long transaction elsewhere on the shared cluster can hold back: wait longer than the default.
  stack = await TestStack.start({ apps: ['gateway', 'accounts', 'posts', 'projector'], sandbox: true, overrides: { accountsRefreshIntervalMs: 60 * 60_000, projectionWaitMs: 25_000 } });
  ({ key, workspaceId } = await stack.workspace(['read', 'write', 'accounts']));
});
afterAll(() => stack.stop());

const control = () => stack.sandbox!.control;
const connectX = (accessToken: string) => stack.request('POST', '/api/v1/accounts', { key, body: { platform: 'x', accessToken } });
const draftTo = (reference: string) => stack.request('POST', '/api/v1/posts', { key, body: { content: 'to whoever @acme is', accounts: [reference] } });
const accountEvents = async () => Number((await stack.db.pool.query<{ n: string }>("SELECT count(*) AS n FROM events WHERE stream_id LIKE 'account-%'")).rows[0].n);

it('stores a second identity with a handle another account still carries, and a reference by it is ambiguous until the renamed one signs in again', async () => {
  const original = control().provisionAccount({ platform: 'x', handle: 'acme', key: 'x:acme-original' });
  const first = await connectX(original.accessToken);
  expect(first.status).toBe(201);
  const originalId: string = first.body.accounts[0].id;

  // On X the original user renames their account (the sandbox's own record of the identity) and another user takes @acme.
  original.identity.handle = 'acme_old';
  const newcomer = control().provisionAccount({ platform: 'x', handle: 'acme', key: 'x:acme-newcomer' });
  const second = await connectX(newcomer.accessToken);
  expect(second.status).toBe(201);
  const newcomerId: string = second.body.accounts[0].id;
  expect(newcomerId).not.toBe(originalId);
  expect(second.body.accounts[0]).toMatchObject({ account: '@acme', platformAccountId: newcomer.identity.platformAccountId, status: 'connected' });

  const events = await stack.eventCount();
  const ambiguous = await draftTo('x:@acme');
  expect(ambiguous.status).toBe(400);
  expect(ambiguous.body.error.code).toBe('ambiguous_account');
  expect(ambiguous.body.error.candidates.map((candidate: { accountId: string }) => candidate.accountId).sort()).toEqual([originalId, newcomerId].sort());
  expect(await stack.eventCount()).toBe(events);

  // The renamed account's next sign-in updates its handle (same row, same id): the reference is unique again.
  const again = await connectX(original.accessToken);
  expect(again.body.accounts[0]).toMatchObject({ id: originalId, account: '@acme_old' });
  const unique = await draftTo('x:@acme');
  expect(unique.status).toBe(201);
  const { rows } = await stack.db.pool.query<{ account_id: string }>(
    "SELECT data->'accounts'->0->>'accountId' AS account_id FROM events WHERE type = 'PostCreated' AND data->>'workspaceId' = $1 ORDER BY global_position DESC LIMIT 1",
    [workspaceId],
  );
  expect(rows[0]?.account_id).toBe(newcomerId);
}, 60_000);

it('a refused sign-in for a handle already in the workspace stores and appends nothing', async () => {
  const stored = await connectX(control().provisionAccount({ platform: 'x', handle: 'taken', key: 'x:taken' }).accessToken);
  expect(stored.status).toBe(201);
  const events = await stack.eventCount();
  const accountEventsBefore = await accountEvents();
  const refused = await connectX('a-token-x-never-issued');
  expect(refused.status).toBe(400);
  expect(refused.body.error.code).toBe('invalid_credentials');
  expect(await stack.eventCount()).toBe(events);
  expect(await accountEvents()).toBe(accountEventsBefore);
  const { rows } = await stack.db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM accounts WHERE workspace_id = $1 AND lower(handle) = '@taken'", [workspaceId]);
  expect(rows[0].n).toBe(1);
});

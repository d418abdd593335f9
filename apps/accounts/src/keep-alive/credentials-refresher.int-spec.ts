import { randomUUID } from 'node:crypto';
import { TokenCipher } from '@app/accounts';
import { TestStack, tokenOf } from '../../../../test/support/test-stack';
import { CredentialsRefresher } from './credentials-refresher';

/**
 * The accounts service's pass, against the platform sandbox: tokens that end soon are
 * renewed without waiting for a call to need them, and rows stored before identities were
 * kept (a bare token, no platform id) are identified with their token and connected again.
 */
let stack: TestStack;
let workspaceId: string;

beforeAll(async () => {
  // The pass is run by the test, not by the timer.
  stack = await TestStack.start({ apps: ['projector', 'accounts'], sandbox: true, overrides: { accountsRefreshIntervalMs: 60 * 60_000 } });
  ({ workspaceId } = await stack.workspace());
});
afterAll(() => stack.stop());

const refresher = () => stack.app('accounts').get(CredentialsRefresher);
const row = async (id: string) =>
  (await stack.db.pool.query<{ status: string; status_reason: string | null; platform_account_id: string | null; token_expires_at: Date | null }>('SELECT status, status_reason, platform_account_id, token_expires_at FROM accounts WHERE id = $1', [id])).rows[0];

it('renews a token that ends within ten minutes, and leaves one that does not', async () => {
  const ending = await stack.connect(workspaceId, 'x', '@ending');
  const fresh = await stack.connect(workspaceId, 'x', '@fresh');
  await stack.db.pool.query("UPDATE accounts SET token_expires_at = now() + interval '5 minutes' WHERE id = $1", [ending.id]);
  const before = (await stack.accounts.secrets(ending.id))!.credentials.accessToken;
  const freshToken = (await stack.accounts.secrets(fresh.id))!.credentials.accessToken;

  expect(await refresher().pass()).toBe(1);
  const renewed = await stack.accounts.secrets(ending.id);
  expect(renewed!.credentials.accessToken).not.toBe(before);
  expect((await row(ending.id)).token_expires_at!.getTime()).toBeGreaterThan(Date.now() + 60 * 60_000);
  expect((await stack.accounts.secrets(fresh.id))!.credentials.accessToken).toBe(freshToken);
  expect((await row(ending.id)).status).toBe('connected');
});

it("re-extends a long-lived Threads token a week before its 60 days end (not ten minutes before)", async () => {
  const threads = await stack.connect(workspaceId, 'threads', '@longlived');
  // Two days old on the platform (Threads re-extends tokens at least a day old), ending in five days here.
  stack.sandbox!.control.advanceClock(2 * 24 * 3600);
  await stack.db.pool.query("UPDATE accounts SET token_expires_at = now() + interval '5 days' WHERE id = $1", [threads.id]);
  const before = (await stack.accounts.secrets(threads.id))!.credentials.accessToken;
  await refresher().pass();
  expect((await stack.accounts.secrets(threads.id))!.credentials.accessToken).not.toBe(before);
  expect((await row(threads.id)).token_expires_at!.getTime()).toBeGreaterThan(Date.now() + 50 * 24 * 3600_000);
});

it('identifies a row from before identities were kept with its stored token, and connects it again', async () => {
  // As migration 900 leaves such a row: a bare token, no platform id, needs_reauth / identity_unknown.
  const made = stack.sandbox!.control.provisionAccount({ platform: 'x', handle: 'oldtimer', key: tokenOf('@oldtimer') });
  const id = randomUUID();
  const sealed = new TokenCipher(stack.config.tokenEncryptionKey).encrypt(made.accessToken, id);
  await stack.db.pool.query(
    `INSERT INTO accounts (id, workspace_id, platform, handle, display_name, status, status_reason, credentials) VALUES ($1, $2, 'x', '@oldtimer', '@oldtimer', 'needs_reauth', 'identity_unknown', $3)`,
    [id, workspaceId, sealed],
  );
  // And one whose token the platform no longer accepts: it stays needing its user.
  const lostId = randomUUID();
  await stack.db.pool.query(
    `INSERT INTO accounts (id, workspace_id, platform, handle, display_name, status, status_reason, credentials) VALUES ($1, $2, 'x', '@lost', '@lost', 'needs_reauth', 'identity_unknown', $3)`,
    [lostId, workspaceId, new TokenCipher(stack.config.tokenEncryptionKey).encrypt('a-token-x-never-issued', lostId)],
  );

  await refresher().pass();
  expect(await row(id)).toMatchObject({ status: 'connected', status_reason: null, platform_account_id: made.identity.platformAccountId });
  expect(await row(lostId)).toMatchObject({ status: 'needs_reauth', status_reason: 'credentials_refused', platform_account_id: null });
  // Refused once is enough: the next pass does not ask the platform about it again.
  const asked = stack.sandbox!.control.requestCount({ platform: 'x', operation: 'identify' });
  await refresher().pass();
  expect(stack.sandbox!.control.requestCount({ platform: 'x', operation: 'identify' })).toBe(asked);
  const events = await stack.db.pool.query<{ type: string }>('SELECT type FROM events WHERE stream_id = $1', [`account-${id}`]);
  expect(events.rows.map((event) => event.type)).toEqual(['AccountConnected']);
});

it('goes on with the other accounts when renewing one throws, whatever it throws', async () => {
  // Three accounts due, in this order: one whose stored credentials cannot be read (sealed for
  // another row: decrypting throws, as after a wrong key), an Instagram account (renewed with the
  // Facebook app: Instagram has no app of its own), and an X account.
  const broken = await stack.connect(workspaceId, 'x', '@unreadable');
  const instagram = await stack.connect(workspaceId, 'instagram', '@gram');
  const x = await stack.connect(workspaceId, 'x', '@after');
  await stack.db.pool.query('UPDATE accounts SET credentials = $2 WHERE id = $1', [broken.id, new TokenCipher(stack.config.tokenEncryptionKey).encrypt('x', randomUUID())]);
  await stack.db.pool.query("UPDATE accounts SET token_expires_at = now() + interval '1 minute' WHERE id = $1", [broken.id]);
  await stack.db.pool.query("UPDATE accounts SET token_expires_at = now() + interval '2 days' WHERE id = $1", [instagram.id]);
  await stack.db.pool.query("UPDATE accounts SET token_expires_at = now() + interval '5 minutes' WHERE id = $1", [x.id]);
  // Re-extending takes a Meta token at least a day old.
  stack.sandbox!.control.advanceClock(2 * 24 * 3600);
  const before = { instagram: (await stack.accounts.secrets(instagram.id))!.credentials.accessToken, x: (await stack.accounts.secrets(x.id))!.credentials.accessToken };
  await expect(stack.accounts.secrets(broken.id)).rejects.toThrow();

  expect(await refresher().pass()).toBe(2);
  expect((await stack.accounts.secrets(instagram.id))!.credentials.accessToken).not.toBe(before.instagram);
  expect((await row(instagram.id)).token_expires_at!.getTime()).toBeGreaterThan(Date.now() + 50 * 24 * 3600_000);
  expect((await stack.accounts.secrets(x.id))!.credentials.accessToken).not.toBe(before.x);
  expect(await row(broken.id)).toMatchObject({ status: 'connected' });
  // The Instagram renewal went to Facebook's token endpoint with the Facebook app's id.
  expect(stack.sandbox!.control.requests({ platform: 'instagram' }).some((request) => request.path.includes('grant_type=fb_exchange_token') && request.path.includes('client_id=facebook-client'))).toBe(true);
});

import { randomBytes } from 'node:crypto';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { RunningPlatformSandbox, startPlatformSandbox } from '@app/platform-sandbox';
import { runAdmin } from './admin-program';
import { openLocalStore } from './local-store';

/** `npm run admin` as tools/admin.ts wires it: the session from the environment (DATABASE_URL, TOKEN_ENCRYPTION_KEY, PLATFORM_SANDBOX_URL). */
describe('admin command line on the local store (real Postgres, platform sandbox)', () => {
  let db: TestDatabase;
  let sandbox: RunningPlatformSandbox;
  const saved = { ...process.env };
  const key = randomBytes(32);
  const logged: string[] = [];

  beforeAll(async () => {
    [db, sandbox] = await Promise.all([createTestDatabase(), startPlatformSandbox()]);
    process.env.DATABASE_URL = db.url;
    process.env.TOKEN_ENCRYPTION_KEY = key.toString('base64');
    process.env.PLATFORM_SANDBOX_URL = sandbox.url;
  });
  afterAll(async () => {
    process.env = saved;
    await sandbox?.close();
    await db?.drop();
  });

  async function admin(...args: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await runAdmin(args, {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
      openStore: () => openLocalStore((line) => logged.push(line)),
    });
    return { code, stdout, stderr };
  }

  it('connects through the sandbox PLATFORM_SANDBOX_URL names, seals with TOKEN_ENCRYPTION_KEY, and keeps stdout to JSON', async () => {
    const workspaceId = JSON.parse((await admin('workspace', 'create', 'Acme')).stdout).id;
    const acme = sandbox.control.provisionAccount({ platform: 'x', handle: '@acme' });
    const connected = await admin('account', 'connect', '--workspace', workspaceId, '--platform', 'x', '--token', acme.accessToken);
    expect(connected.code).toBe(0);
    const [account] = JSON.parse(connected.stdout).accounts;
    expect(account).toMatchObject({ platform: 'x', account: '@acme', platformAccountId: acme.identity.platformAccountId });

    const { rows } = await db.pool.query<{ credentials: Buffer }>('SELECT credentials FROM accounts WHERE id = $1', [account.id]);
    expect(rows[0].credentials.toString('latin1')).not.toContain(acme.accessToken);

    // The revocation warning (no X app configured) goes to the log (stderr), not into the JSON on stdout.
    const disconnected = await admin('account', 'disconnect', account.id);
    expect(disconnected.code).toBe(0);
    expect(JSON.parse(disconnected.stdout)).toMatchObject({ id: account.id, status: 'disconnected' });
    expect(logged).toContainEqual(expect.stringMatching(/^warn \[DisconnectAccount\] revoking the token of account .* on x failed/));
  });

  it('refuses a TOKEN_ENCRYPTION_KEY that is not 32 bytes, as the services do', async () => {
    process.env.TOKEN_ENCRYPTION_KEY = randomBytes(16).toString('base64');
    try {
      const run = await admin('account', 'list', '--workspace', '00000000-0000-4000-8000-000000000000');
      expect(run.code).toBe(1);
      expect(JSON.parse(run.stderr).error).toContain('TOKEN_ENCRYPTION_KEY must be 32 bytes');
    } finally {
      process.env.TOKEN_ENCRYPTION_KEY = key.toString('base64');
    }
  });
});

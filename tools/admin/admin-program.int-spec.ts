import { randomBytes, randomUUID, createHash } from 'node:crypto';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { TokenCipher, WorkspaceStore } from '@app/workspaces';
import { runAdmin } from './admin-program';

/** One admin command run in-process: what it printed and the exit code it asked for. */
interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (what every successful command prints). */
  json: any;
}

describe('admin command line (in-process, real Postgres)', () => {
  let db: TestDatabase;
  let store: WorkspaceStore;
  let opened: number;

  beforeAll(async () => {
    db = await createTestDatabase();
    store = new WorkspaceStore(db.pool, new TokenCipher(randomBytes(32)));
  });
  afterAll(() => db.drop());
  beforeEach(() => {
    opened = 0;
  });

  async function admin(...args: string[]): Promise<Run> {
    let stdout = '';
    let stderr = '';
    const code = await runAdmin(args, {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
      openStore: async () => {
        opened++;
        return { store, close: async () => undefined };
      },
    });
    return {
      code,
      stdout,
      stderr,
      get json() {
        return JSON.parse(stdout);
      },
    };
  }

  async function newWorkspace(name = 'Acme'): Promise<string> {
    return (await admin('workspace', 'create', name)).json.id;
  }

  const count = async (sql: string, params: unknown[]) => Number((await db.pool.query<{ n: string }>(sql, params)).rows[0].n);
  const errorOf = (run: Run): string => JSON.parse(run.stderr).error;

  it('workspace create prints the new workspace', async () => {
    const run = await admin('workspace', 'create', 'Acme Inc');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.json).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Acme Inc', createdAt: expect.any(String) });
    expect(await store.getWorkspace(run.json.id)).toMatchObject({ name: 'Acme Inc' });
  });

  describe('key create', () => {
    it('prints the key once; it authenticates and only its SHA-256 digest is stored', async () => {
      const workspaceId = await newWorkspace();
      const run = await admin('key', 'create', '--workspace', workspaceId, '--scopes', 'read, write,engage');
      expect(run.code).toBe(0);
      expect(run.json).toEqual({
        id: expect.any(String),
        workspaceId,
        scopes: ['read', 'write', 'engage'],
        displayPrefix: run.json.key.slice(0, 9),
        createdAt: expect.any(String),
        revokedAt: null,
        key: expect.stringMatching(/^sp_[A-Za-z0-9_-]{43}$/),
      });
      expect(await store.authenticate(run.json.key)).toEqual({ keyId: run.json.id, workspaceId, scopes: ['read', 'write', 'engage'] });

      expect(run.stdout.split(run.json.key)).toHaveLength(2);

      const { rows } = await db.pool.query<{ key_hash: Buffer }>('SELECT key_hash FROM api_keys WHERE id = $1', [run.json.id]);
      expect(rows[0].key_hash).toEqual(createHash('sha256').update(run.json.key).digest());
      // No column of any key row holds the plain key (or its random part).
      const holding = 'SELECT count(*) AS n FROM api_keys WHERE strpos(api_keys::text, $1) > 0';
      expect(await count(holding, [run.json.key.slice(3)])).toBe(0);
      expect(await count(holding, [run.json.id])).toBe(1);
    });

    it.each([
      ['an unknown scope', 'read,admin', /unknown scope admin; scopes are a comma-separated list of read, write, publish, engage/],
      ['no scope at all', ' , ', /at least one scope is needed/],
    ])('refuses %s with a clear message and creates nothing', async (_, scopes, message) => {
      const workspaceId = await newWorkspace();
      opened = 0;
      const run = await admin('key', 'create', '--workspace', workspaceId, '--scopes', scopes);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(message);
      expect(opened).toBe(0);
      expect(await count('SELECT count(*) AS n FROM api_keys WHERE workspace_id = $1', [workspaceId])).toBe(0);
    });

    it('refuses an unknown workspace', async () => {
      const missing = randomUUID();
      const run = await admin('key', 'create', '--workspace', missing, '--scopes', 'read');
      expect(run.code).toBe(1);
      expect(errorOf(run)).toBe(`no workspace ${missing}`);
      expect(await count('SELECT count(*) AS n FROM api_keys WHERE workspace_id = $1', [missing])).toBe(0);
    });
  });

  describe('key revoke', () => {
    it('revokes: the key no longer authenticates, and revoking again is refused', async () => {
      const workspaceId = await newWorkspace();
      const created = (await admin('key', 'create', '--workspace', workspaceId, '--scopes', 'read')).json;
      expect(await store.authenticate(created.key)).not.toBeNull();

      const run = await admin('key', 'revoke', created.id);
      expect(run).toMatchObject({ code: 0, json: { id: created.id, revoked: true } });
      expect(await store.authenticate(created.key)).toBeNull();

      const again = await admin('key', 'revoke', created.id);
      expect(again.code).toBe(1);
      expect(errorOf(again)).toBe(`no active key ${created.id}`);
    });

    it('refuses an unknown key id, and a malformed one before opening the store', async () => {
      const missing = randomUUID();
      const unknown = await admin('key', 'revoke', missing);
      expect(unknown.code).toBe(1);
      expect(errorOf(unknown)).toBe(`no active key ${missing}`);

      opened = 0;
      const malformed = await admin('key', 'revoke', 'not-a-key');
      expect(malformed.code).toBe(1);
      expect(malformed.stderr).toContain('not an id (a UUID): not-a-key');
      expect(opened).toBe(0);
    });
  });

  describe('accounts', () => {
    it('connect stores the token encrypted; reconnecting keeps the id; disconnect drops the token; list shows both', async () => {
      const workspaceId = await newWorkspace();
      const token = `tok-${randomBytes(12).toString('hex')}`;
      const connected = await admin('account', 'connect', '--workspace', workspaceId, '--platform', 'x', '--handle', 'acme', '--token', token, '--display-name', 'Acme');
      expect(connected.code).toBe(0);
      expect(connected.json).toEqual({
        id: expect.any(String),
        workspaceId,
        platform: 'x',
        handle: '@acme',
        displayName: 'Acme',
        status: 'connected',
        createdAt: expect.any(String),
      });
      expect(connected.stdout).not.toContain(token);
      const accountId = connected.json.id;

      const credentials = async () => (await db.pool.query<{ credentials: Buffer | null }>('SELECT credentials FROM accounts WHERE id = $1', [accountId])).rows[0].credentials;
      const sealed = await credentials();
      expect(sealed).toBeInstanceOf(Buffer);
      expect(sealed!.toString('latin1')).not.toContain(token);
      expect(await store.accountToken(accountId)).toBe(token);

      const newToken = `tok-${randomBytes(12).toString('hex')}`;
      const reconnected = await admin('account', 'connect', '--workspace', workspaceId, '--platform', 'x', '--handle', '@ACME', '--token', newToken);
      expect(reconnected.code).toBe(0);
      expect(reconnected.json).toMatchObject({ id: accountId, status: 'connected' });
      expect(await store.accountToken(accountId)).toBe(newToken);

      await admin('account', 'connect', '--workspace', workspaceId, '--platform', 'bluesky', '--handle', '@acme.bsky.social');
      const disconnected = await admin('account', 'disconnect', accountId);
      expect(disconnected.code).toBe(0);
      expect(disconnected.json).toMatchObject({ id: accountId, status: 'disconnected' });
      expect(await credentials()).toBeNull();
      expect(await store.accountToken(accountId)).toBeNull();

      const list = await admin('account', 'list', '--workspace', workspaceId);
      expect(list.code).toBe(0);
      expect(list.json.map((a: { platform: string; handle: string; status: string }) => [a.platform, a.handle, a.status])).toEqual([
        ['bluesky', '@acme.bsky.social', 'connected'],
        ['x', '@acme', 'disconnected'],
      ]);
    });

    it('list of a workspace with no accounts is an empty array', async () => {
      const workspaceId = await newWorkspace();
      const run = await admin('account', 'list', '--workspace', workspaceId);
      expect(run).toMatchObject({ code: 0, json: [] });
    });

    it('refuses unknown workspaces and accounts with a clear error and exit code 1', async () => {
      const missing = randomUUID();
      const connect = await admin('account', 'connect', '--workspace', missing, '--platform', 'x', '--handle', '@acme', '--token', 't');
      expect([connect.code, errorOf(connect), connect.stdout]).toEqual([1, `no workspace ${missing}`, '']);
      expect(await count('SELECT count(*) AS n FROM accounts WHERE workspace_id = $1', [missing])).toBe(0);

      const list = await admin('account', 'list', '--workspace', missing);
      expect([list.code, errorOf(list)]).toEqual([1, `no workspace ${missing}`]);

      const disconnect = await admin('account', 'disconnect', missing);
      expect([disconnect.code, errorOf(disconnect)]).toEqual([1, `no account ${missing}`]);
    });

    it('refuses an unknown platform before opening the store', async () => {
      const workspaceId = await newWorkspace();
      opened = 0;
      const run = await admin('account', 'connect', '--workspace', workspaceId, '--platform', 'myspace', '--handle', '@acme');
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('not a platform identifier: myspace');
      expect(opened).toBe(0);
    });
  });

  it('usage errors exit non-zero without touching the store; --help exits 0', async () => {
    const missingOption = await admin('key', 'create', '--scopes', 'read');
    expect(missingOption.code).toBe(1);
    expect(missingOption.stderr).toContain("required option '--workspace <id>' not specified");

    const help = await admin('account', 'connect', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--platform <platform>');
    expect(opened).toBe(0);
  });
});

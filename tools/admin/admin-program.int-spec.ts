import { randomBytes, randomUUID, createHash } from 'node:crypto';
import { AccountStore, TokenCipher } from '@app/accounts';
import { AppConfig } from '@app/config';
import { accountStreamId, Platform } from '@app/contracts';
import { PostgresEventStore } from '@app/event-store';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { WorkspaceStore } from '@app/workspaces';
import { RunningPlatformSandbox, startPlatformSandbox } from '@app/platform-sandbox';
import { runAdmin } from './admin-program';

/** One admin command run in-process: what it printed and the exit code it asked for. */
interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (what every successful command prints). */
  json: any;
}

/** Token platforms the connect tests run against in the sandbox: X (refresh token, expiry), Mastodon (per-instance identity). */
const TOKEN_PLATFORMS: Platform[] = ['x', 'mastodon'];

describe('admin command line (in-process, real Postgres, platform sandbox)', () => {
  let db: TestDatabase;
  let sandbox: RunningPlatformSandbox;
  let workspaces: WorkspaceStore;
  let accounts: AccountStore;
  let events: PostgresEventStore;
  let config: AppConfig;
  let opened: number;

  beforeAll(async () => {
    [db, sandbox] = await Promise.all([createTestDatabase(), startPlatformSandbox()]);
    const tokenEncryptionKey = randomBytes(32);
    workspaces = new WorkspaceStore(db.pool);
    accounts = new AccountStore(db.pool, new TokenCipher(tokenEncryptionKey));
    events = new PostgresEventStore(db.pool, { databaseUrl: db.url });
    config = new AppConfig().with({
      databaseUrl: db.url,
      tokenEncryptionKey,
      platformSandboxUrl: sandbox.url,
      platformRetry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 5 },
    });
  });
  afterAll(async () => {
    await sandbox?.close();
    await db?.drop();
  });
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
        return { workspaces, accounts, events, config, close: async () => undefined };
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
    expect(await workspaces.getWorkspace(run.json.id)).toMatchObject({ name: 'Acme Inc' });
  });

  it('workspace list prints every workspace (id, name, createdAt), oldest first', async () => {
    const first = (await admin('workspace', 'create', 'Listed first')).json;
    const second = (await admin('workspace', 'create', 'Listed second')).json;
    const run = await admin('workspace', 'list');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const listed = run.json as { id: string; name: string; createdAt: string }[];
    expect(listed).toHaveLength(await count('SELECT count(*) AS n FROM workspaces', []));
    expect(listed).toContainEqual(first);
    expect(listed.findIndex((w) => w.id === first.id)).toBeLessThan(listed.findIndex((w) => w.id === second.id));
    const times = listed.map((w) => Date.parse(w.createdAt));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('workspace update --approval-required turns approvals on and off; a value other than true or false changes nothing', async () => {
    const workspaceId = await newWorkspace();
    const on = await admin('workspace', 'update', workspaceId, '--approval-required', 'true');
    expect(on.code).toBe(0);
    expect(on.json).toEqual({ workspaceId, approvalRequired: true });
    expect(await workspaces.settings(workspaceId)).toEqual({ approvalRequired: true });
    const wrong = await admin('workspace', 'update', workspaceId, '--approval-required', 'yes');
    expect(wrong.code).not.toBe(0);
    expect(await workspaces.settings(workspaceId)).toEqual({ approvalRequired: true });
    expect((await admin('workspace', 'update', workspaceId, '--approval-required', 'false')).json.approvalRequired).toBe(false);
  });

  describe('workspace redirect-origins', () => {
    it('shows, replaces and clears the origins sign-ins may send users back to', async () => {
      const workspaceId = await newWorkspace();
      expect((await admin('workspace', 'redirect-origins', workspaceId)).json).toEqual({ workspaceId, redirectOrigins: [] });
      const set = await admin('workspace', 'redirect-origins', workspaceId, '--origin', 'https://App.Example.com/', '--origin', 'https://app.example.com:8443');
      expect(set.code).toBe(0);
      expect(set.json.redirectOrigins).toEqual(['https://app.example.com', 'https://app.example.com:8443']);
      expect(await workspaces.redirectOrigins(workspaceId)).toEqual(['https://app.example.com', 'https://app.example.com:8443']);
      expect((await admin('workspace', 'redirect-origins', workspaceId, '--clear')).json.redirectOrigins).toEqual([]);
      expect(await workspaces.redirectOrigins(workspaceId)).toEqual([]);
    });

    it('refuses what is not a bare origin, and an unknown workspace, changing nothing', async () => {
      const workspaceId = await newWorkspace();
      await workspaces.setRedirectOrigins(workspaceId, ['https://kept.example']);
      for (const value of ['https://app.example.com/done', 'https://app.example.com?x=1', 'ftp://app.example.com', 'not a url', 'https://u:p@app.example.com']) {
        const run = await admin('workspace', 'redirect-origins', workspaceId, '--origin', value);
        expect(run.code).not.toBe(0);
        expect(run.stderr).toContain('not an origin');
      }
      const unknown = await admin('workspace', 'redirect-origins', randomUUID(), '--origin', 'https://app.example.com');
      expect(unknown.code).toBe(1);
      expect(errorOf(unknown)).toMatch(/no workspace/);
      expect(await workspaces.redirectOrigins(workspaceId)).toEqual(['https://kept.example']);
    });
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
      expect(await workspaces.authenticate(run.json.key)).toEqual({ keyId: run.json.id, workspaceId, scopes: ['read', 'write', 'engage'] });

      expect(run.stdout.split(run.json.key)).toHaveLength(2);

      const { rows } = await db.pool.query<{ key_hash: Buffer }>('SELECT key_hash FROM api_keys WHERE id = $1', [run.json.id]);
      expect(rows[0].key_hash).toEqual(createHash('sha256').update(run.json.key).digest());
      // No column of any key row holds the plain key (or its random part).
      const holding = 'SELECT count(*) AS n FROM api_keys WHERE strpos(api_keys::text, $1) > 0';
      expect(await count(holding, [run.json.key.slice(3)])).toBe(0);
      expect(await count(holding, [run.json.id])).toBe(1);
    });

    it('grants the accounts scope only when it is asked for, and says so in its help', async () => {
      const workspaceId = await newWorkspace();
      const plain = await admin('key', 'create', '--workspace', workspaceId, '--scopes', 'read,write');
      const withAccounts = await admin('key', 'create', '--workspace', workspaceId, '--scopes', 'read,accounts');
      expect((await workspaces.authenticate(plain.json.key))?.scopes).toEqual(['read', 'write']);
      expect((await workspaces.authenticate(withAccounts.json.key))?.scopes).toEqual(['read', 'accounts']);

      const help = await admin('key', 'create', '--help');
      expect(help.code).toBe(0);
      expect(help.stdout.replace(/\s+/g, ' ')).toMatch(/read,write,publish,engage,accounts,webhooks,approve \(accounts, to connect and disconnect social accounts, webhooks, to manage webhook endpoints, and approve, to review held posts and change the workspace's settings, are only granted when asked for\)/);
    });

    it.each([
      ['an unknown scope', 'read,admin', /unknown scope admin; scopes are a comma-separated list of read, write, publish, engage, accounts/],
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
      expect(await workspaces.authenticate(created.key)).not.toBeNull();

      const run = await admin('key', 'revoke', created.id);
      expect(run).toMatchObject({ code: 0, json: { id: created.id, revoked: true } });
      expect(await workspaces.authenticate(created.key)).toBeNull();

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
    const credentialsColumn = async (accountId: string) =>
      (await db.pool.query<{ credentials: Buffer | null }>('SELECT credentials FROM accounts WHERE id = $1', [accountId])).rows[0].credentials;
    const accountRows = (workspaceId: string) => count('SELECT count(*) AS n FROM accounts WHERE workspace_id = $1', [workspaceId]);
    const eventTypes = async (accountId: string) => (await events.readStream(accountStreamId(accountId))).map((e) => e.type);

    /** A sandbox account and the tokens its sign-in gave, as connect options. */
    function provision(handle: string, platform: Platform = 'x') {
      const provisioned = sandbox.control.provisionAccount({ platform, handle });
      const options = ['--token', provisioned.accessToken];
      if (provisioned.refreshToken) options.push('--refresh-token', provisioned.refreshToken);
      if (provisioned.expiresIn !== null) options.push('--expires-at', new Date(Date.now() + provisioned.expiresIn * 1000).toISOString());
      return { ...provisioned, options };
    }

    describe.each(TOKEN_PLATFORMS)('%s', (platform) => {
      it('connect with a sandbox-issued token stores the identity the platform gives, the token sealed; reconnecting keeps the account', async () => {
        const workspaceId = await newWorkspace();
        const acme = provision('@acme', platform);
        const connected = await admin('account', 'connect', '--workspace', workspaceId, '--platform', platform, ...acme.options);
        expect(connected).toMatchObject({ code: 0, stderr: '' });
        expect(connected.json).toEqual({
          accounts: [
            {
              id: expect.stringMatching(/^[0-9a-f-]{36}$/),
              platform: platform,
              account: '@acme',
              displayName: acme.identity.displayName,
              status: 'connected',
              statusReason: null,
              statusSince: expect.any(String),
              platformAccountId: acme.identity.platformAccountId,
              instanceUrl: platform === 'mastodon' ? `${sandbox.url}/mastodon` : null,
              tokenExpiresAt: acme.expiresIn === null ? null : expect.any(String),
              scopes: expect.any(Array),
              createdAt: expect.any(String),
            },
          ],
        });
        expect(connected.stdout).not.toContain(acme.accessToken);
        const accountId = connected.json.accounts[0].id;
        expect(await accounts.get(accountId)).toMatchObject({ workspaceId, platformAccountId: acme.identity.platformAccountId });

        // Sealed at rest: the row holds neither token in clear; the store opens it again.
        const sealed = await credentialsColumn(accountId);
        expect(sealed).toBeInstanceOf(Buffer);
        expect(sealed!.toString('latin1')).not.toContain(acme.accessToken);
        const rowHolding = 'SELECT count(*) AS n FROM accounts WHERE strpos(accounts::text, $1) > 0';
        expect(await count(rowHolding, [acme.accessToken])).toBe(0);
        if (acme.refreshToken) expect(await count(rowHolding, [acme.refreshToken])).toBe(0);
        expect((await accounts.secrets(accountId))?.credentials).toMatchObject({ accessToken: acme.accessToken, refreshToken: acme.refreshToken });
        // Announced as the accounts service announces it.
        expect(await eventTypes(accountId)).toEqual(['AccountConnected']);

        // A new token of the same platform identity updates the same account.
        const again = provision('@acme', platform);
        expect(again.accessToken).not.toBe(acme.accessToken);
        const reconnected = await admin('account', 'connect', '--workspace', workspaceId, '--platform', platform, ...again.options);
        expect(reconnected.code).toBe(0);
        expect(reconnected.json.accounts).toEqual([expect.objectContaining({ id: accountId, status: 'connected' })]);
        expect((await accounts.secrets(accountId))?.credentials.accessToken).toBe(again.accessToken);
        expect(await accountRows(workspaceId)).toBe(1);
      });

      it('connect with a token the platform never issued is refused with its code, and stores nothing', async () => {
        const workspaceId = await newWorkspace();
        const forged = `forged-${randomBytes(12).toString('hex')}`;
        const run = await admin('account', 'connect', '--workspace', workspaceId, '--platform', platform, '--token', forged);
        expect([run.code, run.stdout]).toEqual([1, '']);
        expect(JSON.parse(run.stderr)).toEqual({ error: expect.stringContaining(`${platform} refused the credential`), code: 'invalid_credentials' });
        expect(await accountRows(workspaceId)).toBe(0);
      });
    });

    it('connect without a credential is refused before the store is opened', async () => {
      const workspaceId = await newWorkspace();
      opened = 0;
      const run = await admin('account', 'connect', '--workspace', workspaceId, '--platform', 'x', '--handle', '@acme');
      expect([run.code, run.stdout]).toEqual([1, '']);
      expect(errorOf(run)).toMatch(/^an account is connected with a credential: --token .*--handle and --app-password/);
      expect(opened).toBe(0);
      expect(await accountRows(workspaceId)).toBe(0);
    });

    it('connects Bluesky with --handle and --app-password (at the PDS --instance names); a wrong password or a PDS that is not https is refused', async () => {
      const workspaceId = await newWorkspace();
      const { identity } = sandbox.control.provisionAccount({ platform: 'bluesky', handle: '@acme.bsky.social' });
      const connect = (...options: string[]) => admin('account', 'connect', '--workspace', workspaceId, '--platform', 'bluesky', '--handle', 'acme.bsky.social', ...options);

      const wrong = await connect('--app-password', 'aaaa-bbbb-cccc-dddd');
      expect([wrong.code, JSON.parse(wrong.stderr).code]).toEqual([1, 'invalid_credentials']);
      const plainHttp = await connect('--app-password', identity.attributes.appPassword, '--instance', 'http://pds.example.com');
      expect([plainHttp.code, JSON.parse(plainHttp.stderr).code]).toEqual([1, 'invalid_instance_url']);
      expect(await accountRows(workspaceId)).toBe(0);

      const run = await connect('--app-password', identity.attributes.appPassword, '--instance', `${sandbox.url}/bluesky`);
      expect(run.code).toBe(0);
      expect(run.json.accounts).toEqual([expect.objectContaining({ platform: 'bluesky', account: '@acme.bsky.social', platformAccountId: identity.platformAccountId, status: 'connected' })]);
      expect(run.stdout).not.toContain(identity.attributes.appPassword);
    });

    it("disconnect (in the account's own workspace) forgets the credentials and announces it; list shows every account's view", async () => {
      const workspaceId = await newWorkspace();
      const first = (await admin('account', 'connect', '--workspace', workspaceId, '--platform', 'x', ...provision('@first').options)).json.accounts[0];
      const second = (await admin('account', 'connect', '--workspace', workspaceId, '--platform', 'x', ...provision('@second').options)).json.accounts[0];

      const disconnected = await admin('account', 'disconnect', first.id);
      expect(disconnected.code).toBe(0);
      expect(disconnected.json).toMatchObject({ id: first.id, account: '@first', status: 'disconnected', statusReason: 'disconnected_by_workspace' });
      expect(await credentialsColumn(first.id)).toBeNull();
      expect(await accounts.secrets(first.id)).toBeNull();
      expect(await eventTypes(first.id)).toEqual(['AccountConnected', 'AccountDisconnected']);
      // Revoking is best effort: no X app (X_CLIENT_ID/SECRET) is configured here, so it could not be revoked (a warning is logged).
      expect((await events.readStream(accountStreamId(first.id))).at(-1)?.data).toMatchObject({ accountId: first.id, workspaceId, revoked: false });
      expect((await accounts.secrets(second.id))?.account.status).toBe('connected');

      // Disconnecting again answers the account as it is, and announces nothing more.
      const again = await admin('account', 'disconnect', first.id);
      expect(again).toMatchObject({ code: 0, json: { id: first.id, status: 'disconnected' } });
      expect(await eventTypes(first.id)).toEqual(['AccountConnected', 'AccountDisconnected']);

      const list = await admin('account', 'list', '--workspace', workspaceId);
      expect(list.code).toBe(0);
      expect(list.json).toEqual((await accounts.list(workspaceId)).map((a) => expect.objectContaining({ id: a.id, account: a.handle, status: a.status, platformAccountId: a.platformAccountId })));
      expect(list.json.map((a: { account: string; status: string }) => [a.account, a.status])).toEqual([
        ['@first', 'disconnected'],
        ['@second', 'connected'],
      ]);
      expect(list.stdout).not.toMatch(/credentials|accessToken|workspaceId/);
    });

    it('list of a workspace with no accounts is an empty array', async () => {
      const workspaceId = await newWorkspace();
      const run = await admin('account', 'list', '--workspace', workspaceId);
      expect(run).toMatchObject({ code: 0, json: [] });
    });

    it('refuses unknown workspaces and accounts with a clear error and exit code 1', async () => {
      const missing = randomUUID();
      const connect = await admin('account', 'connect', '--workspace', missing, '--platform', 'x', ...provision('@nowhere').options);
      expect([connect.code, errorOf(connect), connect.stdout]).toEqual([1, `no workspace ${missing}`, '']);
      expect(await accountRows(missing)).toBe(0);

      const list = await admin('account', 'list', '--workspace', missing);
      expect([list.code, errorOf(list)]).toEqual([1, `no workspace ${missing}`]);

      const disconnect = await admin('account', 'disconnect', missing);
      expect([disconnect.code, errorOf(disconnect)]).toEqual([1, `no account ${missing}`]);
    });

    it('refuses an unknown platform before opening the store', async () => {
      const workspaceId = await newWorkspace();
      opened = 0;
      const run = await admin('account', 'connect', '--workspace', workspaceId, '--platform', 'myspace', '--token', 't');
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
    expect(help.stdout).toContain('--app-password <password>');
    expect(opened).toBe(0);
  });
});

import { NatsConnection } from 'nats';
import { Pool } from 'pg';
import { AppConfig } from '@app/config';
import { PG_POOL } from '@app/database';
import { NATS_CONNECTION } from '@app/messaging';
import { Platform, PLATFORMS, Scope } from '@app/contracts';
import { createTestDatabase, TEST_NATS_URL, TestDatabase, testNamespace } from '@app/testing';
import { Account, AccountStore, TokenCipher } from '@app/accounts';
import { WorkspaceStore } from '@app/workspaces';
import { RunningPlatformSandbox, startPlatformSandbox } from '@app/platform-sandbox';
import { connectSandboxAccount } from '../../tools/local/connect-sandbox-account';
import { ALL_APPS, AppName, InProcessStack } from '../../tools/local/in-process-stack';
import { PrivateInfra } from './private-infra';

/**
 * Connections per app pool, and for the test's own pool, in a test stack. PostgreSQL takes 100
 * (max_connections) and jest runs two files at once: eight apps at the production default of 10
 * each, with the test's pool of 20, could ask for 100 per file before the apps' dedicated clients
 * (feed leaders and subscriptions, LISTENs: about ten). At 5 (the projector takes its own floor,
 * PROJECTOR_MIN_POOL_SIZE) and 5 a stack opens far fewer; pools open connections as they are used.
 */
const STACK_APP_POOL_SIZE = 5;
const STACK_TEST_POOL_SIZE = 5;
/** How long a write's answer waits for the read model in a test stack (see start). */
const STACK_PROJECTION_WAIT_MS = 20_000;

/**
 * The whole service for one test file: its own database on the real Postgres,
 * its own namespace on the real NATS, every app running in this process, the
 * gateway listening on a free port.
 */
export class TestStack {
  private readonly stack: InProcessStack;

  private constructor(
    readonly db: TestDatabase,
    readonly config: AppConfig,
    readonly workspaces: WorkspaceStore,
    readonly accounts: AccountStore,
    /** The platform sandbox every connector talks to, when started with { sandbox: true }. */
    readonly sandbox: RunningPlatformSandbox | null,
  ) {
    this.stack = new InProcessStack(config, { logger: false });
  }

  get baseUrl(): string {
    return this.stack.gatewayUrl;
  }

  /**
   * `infra`: a PostgreSQL and a nats-server of the test's own (test/support/private-infra.ts),
   * for tests that stop or kill them; otherwise the machine's shared servers.
   */
  static async start(options: { apps?: AppName[]; overrides?: Partial<AppConfig>; sandbox?: boolean; infra?: PrivateInfra } = {}): Promise<TestStack> {
    const db = await createTestDatabase(options.infra?.postgres.serverUrl, STACK_TEST_POOL_SIZE);
    const sandbox = options.sandbox ? await startPlatformSandbox() : null;
    const config = new AppConfig().with({
      databaseUrl: db.url,
      natsUrl: options.infra?.nats.url ?? TEST_NATS_URL,
      natsNamespace: testNamespace(),
      port: 0,
      host: '127.0.0.1',
      // Tests never reach a real platform: without a sandbox every endpoint is a closed local port.
      platformSandboxUrl: sandbox?.url ?? 'http://127.0.0.1:9',
      platformRetry: { baseDelayMs: 1, maxDelayMs: 5 },
      databasePoolSize: STACK_APP_POOL_SIZE,
      // A write's answer waits for the read model, whose feed shows an event only once every older
      // transaction on the whole server has ended (xid8 snapshots): the other test file's included. On the
      // shared, loaded server that can outlast production's 5 s, and a 202 would fail a test that proves
      // read-your-writes; tests of the 202 itself set their own short wait.
      projectionWaitMs: STACK_PROJECTION_WAIT_MS,
      // The sandbox's media host is on loopback: the one private place media may come from in tests.
      mediaAllowedHosts: sandbox ? [new URL(sandbox.mediaUrl).host] : [],
      // Our app on every platform, as a deployment configures it (renewals authenticate as it).
      platformApps: Object.fromEntries(PLATFORMS.map((platform) => [platform, { clientId: `${platform}-client`, clientSecret: `${platform}-secret` }])),
      oauthCallbackUrl: 'https://api.example.test/api/v1/accounts/connect/callback',
      ...options.overrides,
    });
    const stack = new TestStack(db, config, new WorkspaceStore(db.pool), new AccountStore(db.pool, new TokenCipher(config.tokenEncryptionKey)), sandbox);
    await stack.stack.start(options.apps ?? ALL_APPS);
    return stack;
  }

  /** A running app, to reach its providers (app(name).get(Type)). */
  app(name: AppName) {
    const app = this.stack.apps.get(name);
    if (!app) throw new Error(`${name} is not running`);
    return app;
  }

  /**
   * GET /health/ready of one app, through its own HTTP routes (the workers have no
   * listener here, so the request is injected into their Fastify instance).
   */
  async readiness(name: AppName): Promise<{ status: number; body: { status?: string; error?: { code: string; message: string } } }> {
    const response = await this.app(name).getHttpAdapter().getInstance().inject({ method: 'GET', url: '/health/ready' });
    return { status: response.statusCode, body: response.json() };
  }

  startApp(name: AppName) {
    return this.stack.startApp(name);
  }

  stopApp(name: AppName): Promise<void> {
    return this.stack.stopApp(name);
  }

  /**
   * Stops an app as a crash would (kill -9), not as stopApp does (a graceful drain): its NATS
   * connection is closed without draining, so what it holds unacknowledged is redelivered after
   * the ack wait, and its database pool ends without waiting for its queries. Nothing of it runs
   * a shutdown hook first. In this one process its pending promises still settle afterwards, but
   * they can no longer receive, acknowledge, record or reply; a test that must also keep them off
   * the platforms stops those calls itself (the sandbox refusing every call for a while).
   */
  async killApp(name: AppName): Promise<void> {
    const app = this.app(name);
    this.stack.apps.delete(name);
    const nc = app.get<NatsConnection>(NATS_CONNECTION);
    const pool = app.get<Pool>(PG_POOL);
    await nc.close();
    pool.end().catch(() => undefined);
    // Its timers (schedulers) would otherwise keep the dead app half-running: released once it is cut off, errors ignored.
    app.close().catch(() => undefined);
  }

  async stop(): Promise<void> {
    await this.stack.stop();
    await this.sandbox?.close();
    await this.db.drop();
  }

  /** A workspace with a key of the given scopes. */
  async workspace(scopes: Scope[] = ['read', 'write', 'publish', 'engage']): Promise<{ workspaceId: string; key: string }> {
    const workspace = await this.workspaces.createWorkspace(`ws-${Math.random().toString(36).slice(2, 8)}`);
    const { key } = await this.workspaces.createKey(workspace.id, scopes);
    return { workspaceId: workspace.id, key };
  }

  /** Another key of the workspace, with the given scopes. */
  async key(workspaceId: string, scopes: Scope[]): Promise<string> {
    return (await this.workspaces.createKey(workspaceId, scopes)).key;
  }

  /**
   * Connects an account as a completed sign-in would: made on the sandbox (filed there under
   * `tokenOf(handle)`, so tests find its requests and items by it) with the tokens it issued
   * and the identity's attributes (a Pinterest `boardId`, as its sign-in picks one);
   * without a sandbox, an identity and token no platform will ever be asked about.
   */
  async connect(workspaceId: string, platform: Platform, handle: string, attributes?: Record<string, string>): Promise<Account> {
    if (this.sandbox) return connectSandboxAccount(this.accounts, this.sandbox, { workspaceId, platform, handle, key: tokenOf(handle), attributes });
    const identity = { platformAccountId: `test-${handle.replace(/^@/, '')}`, handle, displayName: handle, instanceUrl: null, attributes: {} };
    const credentials = { kind: 'static' as const, accessToken: tokenOf(handle), refreshToken: null, expiresAt: null, refreshTokenExpiresAt: null, scopes: [] };
    return (await this.accounts.saveSignedIn(workspaceId, { platform, identity, credentials })).account;
  }

  /** Disconnects an account through the API (DELETE /api/v1/accounts/:id, with a key of the accounts scope). */
  async disconnect(workspaceId: string, accountId: string): Promise<void> {
    const { key } = await this.workspaces.createKey(workspaceId, ['accounts']);
    const answer = await this.request('DELETE', `/api/v1/accounts/${accountId}`, { key });
    if (answer.status !== 200 || answer.body.status !== 'disconnected') throw new Error(`disconnect answered ${answer.status} ${JSON.stringify(answer.body)}`);
  }

  async request(method: string, path: string, options: { key?: string; body?: unknown; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    // A FormData body (a multipart upload) sets its own content type, with its boundary.
    const form = options.body instanceof FormData;
    if (options.body !== undefined && !form) headers['content-type'] ??= 'application/json';
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : form || typeof options.body === 'string' ? (options.body as FormData | string) : JSON.stringify(options.body),
    });
    const text = await response.text();
    // An answer that is not one JSON document (NDJSON) is read from `text`.
    const json = (response.headers.get('content-type') ?? '').includes('ndjson') ? null : text ? JSON.parse(text) : null;
    return { status: response.status, headers: response.headers, body: json, text };
  }

  /** A request whose answer is not JSON (an SVG chart): its status, content type and text. */
  async requestText(method: string, path: string, options: { key?: string } = {}) {
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers: options.key ? { authorization: `Bearer ${options.key}` } : {} });
    return { status: response.status, contentType: response.headers.get('content-type') ?? '', text: await response.text() };
  }

  async eventCount(): Promise<number> {
    const { rows } = await this.db.pool.query<{ count: string }>('SELECT count(*) FROM events');
    return Number(rows[0].count);
  }
}

/** The sandbox key (and, without a sandbox, the token) TestStack.connect gives a handle. */
export function tokenOf(handle: string): string {
  return `token-${handle}`;
}

import { createServer, connect as connectTcp, Server, Socket } from 'node:net';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { TestStack } from '../support/test-stack';
import { createGatewayApp } from '../../apps/gateway/src/gateway.app';
import { SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../apps/gateway/src/errors/api-exception.filter';

/**
 * A TCP forwarder in front of PostgreSQL that can be cut: while it is down new
 * connections are refused and open ones are reset, as when the server stops.
 * Only the gateway under test goes through it; the shared server is untouched.
 */
class CuttableProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async up(): Promise<void> {
    if (this.server) return;
    const server = createServer((client) => {
      const upstream = connectTcp(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async down(): Promise<void> {
    for (const socket of this.sockets) socket.resetAndDestroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = null;
  }
}

/** PostgreSQL lost during requests: 503 service_unavailable with Retry-After (key lookup included), never 500; then recovery. */
describe('the database lost under the gateway', () => {
  let stack: TestStack;
  let proxy: CuttableProxy;
  let gateway: NestFastifyApplication;
  let baseUrl: string;

  beforeAll(async () => {
    stack = await TestStack.start();
    const direct = new URL(stack.config.databaseUrl);
    proxy = new CuttableProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    await proxy.up();
    const throughProxy = new URL(direct);
    throughProxy.host = `127.0.0.1:${proxy.port}`;
    // A second gateway on the same message bus and services, whose only database path is the proxy.
    gateway = await createGatewayApp(stack.config.with({ databaseUrl: throughProxy.toString(), port: 0 }), { logger: false });
    await gateway.listen(0, '127.0.0.1');
    baseUrl = await gateway.getUrl();
  });
  afterAll(async () => {
    await gateway.close();
    await proxy.down();
    await stack.stop();
  });

  const call = async (method: string, path: string, key: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as Record<string, unknown> };
  };

  it('answers 503 with Retry-After while the database is down, and serves again once it is back', async () => {
    const { key: cachedKey, workspaceId } = await stack.workspace();
    const account = await stack.connect(workspaceId, 'x', '@outage');
    expect((await call('GET', '/api/v1/posts', cachedKey)).status).toBe(200);

    await proxy.down();
    // A key never seen: the key lookup itself meets the lost database.
    const { key: freshKey } = await stack.workspace();
    const unavailable = { status: 503, retryAfter: String(SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS), body: { error: { code: 'service_unavailable', message: expect.any(String) } } };
    const before = await stack.eventCount();
    expect(await call('GET', '/api/v1/posts', freshKey)).toEqual(unavailable);
    // A cached key: the rate limit's counter and the read model meet it.
    expect(await call('GET', '/api/v1/posts', cachedKey)).toEqual(unavailable);
    expect(await call('GET', '/api/v1/comments', cachedKey)).toEqual(unavailable);
    expect(await call('POST', '/api/v1/posts', cachedKey, { content: 'during the outage', accounts: [account.id] })).toEqual(unavailable);
    expect(await stack.eventCount()).toBe(before);

    await proxy.up();
    expect((await call('GET', '/api/v1/posts', freshKey)).status).toBe(200);
    const created = await call('POST', '/api/v1/posts', cachedKey, { content: 'after the outage', accounts: [account.id] });
    expect(created.status).toBe(201);
  });

  /**
   * The database is there but refuses sessions (ALLOW_CONNECTIONS false, its sessions
   * ended): every new connection fails with 55000 "is not currently accepting
   * connections". Only this file's own database is altered, and only its backends ended.
   */
  it('answers 503 with Retry-After while the database refuses connections (55000), and serves again once it accepts them', async () => {
    const { key: cachedKey, workspaceId } = await stack.workspace();
    const account = await stack.connect(workspaceId, 'x', '@refusing');
    expect((await call('GET', '/api/v1/posts', cachedKey)).status).toBe(200);
    const { key: freshKey } = await stack.workspace();
    const before = await stack.eventCount();

    const server = new URL(stack.config.databaseUrl);
    const database = decodeURIComponent(server.pathname.slice(1));
    server.pathname = '/postgres';
    const admin = new Client({ connectionString: server.toString() });
    await admin.connect();
    const quoted = `"${database.replace(/"/g, '""')}"`;
    try {
      await admin.query(`ALTER DATABASE ${quoted} ALLOW_CONNECTIONS false`);
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);
      const unavailable = { status: 503, retryAfter: String(SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS), body: { error: { code: 'service_unavailable', message: expect.any(String) } } };
      expect(await call('GET', '/api/v1/posts', freshKey)).toEqual(unavailable);
      expect(await call('GET', '/api/v1/posts', cachedKey)).toEqual(unavailable);
      expect(await call('GET', '/api/v1/comments', cachedKey)).toEqual(unavailable);
      expect(await call('POST', '/api/v1/posts', cachedKey, { content: 'while refused', accounts: [account.id] })).toEqual(unavailable);
    } finally {
      await admin.query(`ALTER DATABASE ${quoted} ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    expect(await stack.eventCount()).toBe(before);
    expect((await call('GET', '/api/v1/posts', freshKey)).status).toBe(200);
    expect((await call('POST', '/api/v1/posts', cachedKey, { content: 'accepted again', accounts: [account.id] })).status).toBe(201);
  });
});

import 'reflect-metadata';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { createBenchDatabase, startService } from './bench-environment';
import { reportFigures } from './report';
import { runScript } from './run-script';
import { percentile } from './stats';

/**
 * npm run bench:webhooks: webhooks to 10 endpoints that each answer after 50 ms.
 * Each scheduled post's creation is one stored event, `post.scheduled`, delivered
 * to every endpoint. Reports deliveries per second and the lag from the event's
 * append (its stored time, the payload's `timestamp`) to its receipt. One delivery
 * at a time per endpoint bounds the rate at 10 × (1000 / 50) = 200 deliveries/s.
 */
const ENDPOINTS = 10;
const ENDPOINT_LATENCY_MS = 50;
const POSTS = Number(process.env.BENCH_WEBHOOK_POSTS ?? 200);
/** Posts created per second: the offered load, 10 deliveries each. Default just under the bound. */
const POSTS_PER_SECOND = Number(process.env.BENCH_WEBHOOK_POSTS_PER_SECOND ?? 15);

interface Receipt {
  lagMs: number;
  at: number;
}

async function receiver(receipts: Receipt[]): Promise<Server> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const payload = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp: string };
      const at = Date.now();
      receipts.push({ lagMs: at - Date.parse(payload.timestamp), at });
      setTimeout(() => response.writeHead(204).end(), ENDPOINT_LATENCY_MS);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

async function main(): Promise<void> {
  const db = await createBenchDatabase(5);
  const receipts: Receipt[] = [];
  const servers = await Promise.all(Array.from({ length: ENDPOINTS }, () => receiver(receipts)));
  let service: Awaited<ReturnType<typeof startService>> | null = null;
  try {
    const workspace = await db.store.createWorkspace('webhooks bench');
    const { key } = await db.store.createKey(workspace.id, ['write', 'webhooks']);
    const identity = { platformAccountId: 'bench-acme', handle: '@acme', displayName: 'Acme', instanceUrl: null, attributes: {} };
    const credentials = { kind: 'static' as const, accessToken: 'bench-token', refreshToken: null, expiresAt: null, refreshTokenExpiresAt: null, scopes: [] };
    const { account } = await db.accounts.saveSignedIn(workspace.id, { platform: 'mastodon', identity, credentials });
    service = await startService(db, ['projector', 'posts', 'webhooks', 'gateway'], { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_DISPATCH_INTERVAL_MS: '200' });
    const api = (path: string, body: unknown) =>
      fetch(`${service!.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    for (const server of servers) {
      const answer = await api('/api/v1/webhooks', { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, events: ['post.scheduled'] });
      if (answer.status !== 201) throw new Error(`creating an endpoint answered ${answer.status} ${await answer.text()}`);
    }
    const scheduledAt = new Date(Date.now() + 30 * 24 * 3600_000).toISOString();
    const started = Date.now();
    const creates: Array<Promise<void>> = [];
    for (let i = 0; i < POSTS; i++) {
      const due = started + (i * 1000) / POSTS_PER_SECOND;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
      creates.push(
        api('/api/v1/posts', { content: `webhook bench ${i}`, accounts: [account.id], scheduledAt }).then(async (answer) => {
          if (answer.status !== 201) throw new Error(`create answered ${answer.status} ${await answer.text()}`);
        }),
      );
    }
    await Promise.all(creates);
    const expected = POSTS * ENDPOINTS;
    const deadline = Date.now() + 120_000;
    while (receipts.length < expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const first = Math.min(...receipts.map((r) => r.at));
    const last = Math.max(...receipts.map((r) => r.at));
    const lags = receipts.map((r) => r.lagMs).sort((a, b) => a - b);
    const rate = receipts.length / Math.max(0.001, (last - first) / 1000);
    process.stdout.write(
      [
        `endpoints: ${ENDPOINTS}, each answering after ${ENDPOINT_LATENCY_MS} ms (bound: ${(ENDPOINTS * 1000) / ENDPOINT_LATENCY_MS} deliveries/s)`,
        `offered: ${POSTS} posts at ${POSTS_PER_SECOND}/s = ${POSTS_PER_SECOND * ENDPOINTS} deliveries/s`,
        `received: ${receipts.length} of ${expected} deliveries`,
        `deliveries/s: ${rate.toFixed(0)}`,
        `lag append → delivery: p50 ${percentile(lags, 50)} ms, p90 ${percentile(lags, 90)} ms, p99 ${percentile(lags, 99)} ms, max ${lags[lags.length - 1]} ms`,
        '',
      ].join('\n'),
    );
    reportFigures('webhooks', {
      endpoints: ENDPOINTS,
      endpointLatencyMs: ENDPOINT_LATENCY_MS,
      offeredPerSecond: POSTS_PER_SECOND * ENDPOINTS,
      received: receipts.length,
      expected,
      deliveredPerSecond: rate,
      lagMs: { p50: percentile(lags, 50), p90: percentile(lags, 90), p99: percentile(lags, 99), max: lags[lags.length - 1] },
    });
    if (receipts.length < expected) throw new Error(`only ${receipts.length} of ${expected} deliveries arrived within two minutes`);
  } finally {
    service?.stop();
    for (const server of servers) server.close();
    await db.drop();
  }
}

runScript(main);

import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from 'pg';
import { createPool, migrate } from '@app/database';
import { TokenCipher, WorkspaceStore } from '@app/workspaces';
import { formatRow, measure, Measured } from './stats';

/**
 * npm run bench: end-to-end draft creation through the gateway against a
 * baseline of plain single-row inserts measured in the same run, and list
 * latency with 1,000,000 posts in the read model. Figures go in the README.
 */
const SERVER = process.env.BENCH_DATABASE_SERVER ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const CREATES = Number(process.env.BENCH_CREATES ?? 4000);
const LIST_ROWS = Number(process.env.BENCH_LIST_ROWS ?? 1_000_000);
const LIST_REQUESTS = Number(process.env.BENCH_LIST_REQUESTS ?? 2000);

async function adminQuery(sql: string): Promise<void> {
  const client = new Client({ connectionString: SERVER });
  await client.connect();
  await client.query(sql);
  await client.end();
}

async function startService(databaseUrl: string, tokenKey: string) {
  const namespace = `bench${randomBytes(3).toString('hex')}`;
  const processes = await Promise.all(['projector', 'posts', 'gateway'].map((app) => startApp(app, databaseUrl, tokenKey, namespace)));
  return { url: processes[2].url, stop: () => processes.forEach((p) => p.stop()) };
}

async function startApp(app: string, databaseUrl: string, tokenKey: string, namespace: string) {
  const child = spawn(process.execPath, [...(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE] : []), join(__dirname, 'stack-process.js'), app], {
    env: { ...process.env, DATABASE_URL: databaseUrl, NATS_URL, NATS_NAMESPACE: namespace, TOKEN_ENCRYPTION_KEY: tokenKey, DATABASE_POOL_SIZE: '20' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  return { url: (JSON.parse(line) as { url: string }).url, stop: () => child.kill('SIGTERM') };
}

async function main(): Promise<void> {
  const name = `bench_${Date.now().toString(36)}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const pool = createPool(databaseUrl, CONCURRENCY);
  const results: Measured[] = [];
  let service: Awaited<ReturnType<typeof startService>> | null = null;
  try {
    await migrate(databaseUrl);
    const tokenKey = randomBytes(32).toString('base64');
    const store = new WorkspaceStore(pool, new TokenCipher(Buffer.from(tokenKey, 'base64')));
    const workspace = await store.createWorkspace('bench');
    const { key } = await store.createKey(workspace.id, ['read', 'write']);
    await store.connectAccount({ workspaceId: workspace.id, platform: 'x', handle: '@bench', token: 't' });

    // Baseline: the same number of single-row inserts, same concurrency, straight into Postgres.
    await pool.query('CREATE TABLE bench_baseline (id uuid PRIMARY KEY, workspace_id uuid NOT NULL, content text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())');
    const baseline = await measure('baseline: single-row INSERT', CREATES, CONCURRENCY, async () => {
      await pool.query('INSERT INTO bench_baseline (id, workspace_id, content) VALUES ($1, $2, $3)', [randomUUID(), workspace.id, 'Hello from the bench']);
    });
    results.push(baseline);

    service = await startService(databaseUrl, tokenKey);
    const post = (body: unknown) =>
      fetch(`${service!.url}/api/v1/posts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    // Warm-up (JIT, pools, caches), not measured.
    await measure('warm-up', 200, CONCURRENCY, async () => {
      await (await post({ content: 'warm-up', accounts: ['x:@bench'] })).arrayBuffer();
    });
    const creates = await measure(`POST /api/v1/posts draft (c=${CONCURRENCY})`, CREATES, CONCURRENCY, async (i) => {
      const response = await post({ content: `Bench post ${i}`, accounts: ['x:@bench'] });
      await response.arrayBuffer();
      if (response.status !== 201) throw new Error(`create answered ${response.status}`);
    });
    results.push(creates);

    // 1,000,000 posts in the read model for this workspace, written directly (the projection's table).
    const t0 = Date.now();
    await pool.query(
      `INSERT INTO post_views (id, workspace_id, content, content_preview, platforms, accounts, media_urls, first_comments, status, created_at, version)
       SELECT gen_random_uuid(), $1, 'seeded post ' || g, 'seeded post ' || g, ARRAY['x'], '[]', '[]', '[]',
              (ARRAY['draft','scheduled','published','partial','failed'])[1 + g % 5], now() - make_interval(secs => g), 1
       FROM generate_series(1, $2::int) AS g`,
      [workspace.id, LIST_ROWS],
    );
    await pool.query('ANALYZE post_views');
    process.stdout.write(`seeded ${LIST_ROWS} posts in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    const get = async (path: string) => {
      const response = await fetch(`${service!.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`list answered ${response.status}`);
    };
    results.push(await measure(`GET /api/v1/posts at ${LIST_ROWS} posts (c=1)`, LIST_REQUESTS, 1, () => get('/api/v1/posts')));
    results.push(await measure(`GET /api/v1/posts?status=failed&limit=50 (c=1)`, LIST_REQUESTS, 1, () => get('/api/v1/posts?status=failed&limit=50')));
    results.push(await measure(`GET /api/v1/posts at ${LIST_ROWS} posts (c=${CONCURRENCY})`, LIST_REQUESTS * 2, CONCURRENCY, () => get('/api/v1/posts')));

    process.stdout.write(`\n${'benchmark'.padEnd(44)} ${'count'.padStart(7)} ${'rate'.padStart(11)}\n`);
    for (const m of results) process.stdout.write(`${formatRow(m)}\n`);
    process.stdout.write(`\nend-to-end draft creation / plain insert throughput: ${((creates.perSecond / baseline.perSecond) * 100).toFixed(1)}%\n`);
  } finally {
    service?.stop();
    await pool.end();
    await new Promise((r) => setTimeout(r, 500));
    await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

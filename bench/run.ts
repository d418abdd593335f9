import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { createBenchDatabase, startService } from './bench-environment';
import { formatRow, measure, Measured } from './stats';
import { runScript } from './run-script';

/**
 * npm run bench: end-to-end draft creation through the gateway against a
 * baseline of plain single-row inserts measured in the same run, and list
 * latency with 1,000,000 posts in the read model. Figures go in the README.
 */
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const CREATES = Number(process.env.BENCH_CREATES ?? 4000);
const LIST_ROWS = Number(process.env.BENCH_LIST_ROWS ?? 1_000_000);
const LIST_REQUESTS = Number(process.env.BENCH_LIST_REQUESTS ?? 2000);

async function main(): Promise<void> {
  const db = await createBenchDatabase(CONCURRENCY);
  const results: Measured[] = [];
  let service: Awaited<ReturnType<typeof startService>> | null = null;
  try {
    const workspace = await db.store.createWorkspace('bench');
    const { key } = await db.store.createKey(workspace.id, ['read', 'write']);
    // Drafts only: the account is never published to, so no platform (or sandbox) is needed.
    const identity = { platformAccountId: 'bench', handle: '@bench', displayName: 'bench', instanceUrl: null, attributes: {} };
    const credentials = { kind: 'static' as const, accessToken: 'unused', refreshToken: null, expiresAt: null, refreshTokenExpiresAt: null, scopes: [] };
    await db.accounts.saveSignedIn(workspace.id, { platform: 'x', identity, credentials });

    // Baseline: the same number of single-row inserts, same concurrency, straight into Postgres.
    await db.pool.query('CREATE TABLE bench_baseline (id uuid PRIMARY KEY, workspace_id uuid NOT NULL, content text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())');
    const baseline = await measure('baseline: single-row INSERT', CREATES, CONCURRENCY, async () => {
      await db.pool.query('INSERT INTO bench_baseline (id, workspace_id, content) VALUES ($1, $2, $3)', [randomUUID(), workspace.id, 'Hello from the bench']);
    });
    results.push(baseline);

    service = await startService(db, ['projector', 'posts', 'gateway']);
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
    await db.pool.query(
      `INSERT INTO post_views (id, workspace_id, content, content_preview, platforms, accounts, media_urls, first_comments, status, created_at, version)
       SELECT gen_random_uuid(), $1, 'seeded post ' || g, 'seeded post ' || g, ARRAY['x'], '[]', '[]', '[]',
              (ARRAY['draft','scheduled','published','partial','failed'])[1 + g % 5], now() - make_interval(secs => g), 1
       FROM generate_series(1, $2::int) AS g`,
      [workspace.id, LIST_ROWS],
    );
    await db.pool.query('ANALYZE post_views');
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
    await db.drop();
  }
}

runScript(main);

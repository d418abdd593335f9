import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Pool as HttpPool } from 'undici';
import { startPlatformSandbox } from '@app/platform-sandbox';
import { BenchNats } from './bench-nats';
import { createBenchDatabase, startService } from './bench-environment';
import { CostPerOperation, CpuAccounting, formatCost } from './cpu-accounting';
import { connectFanOutAccounts, FAN_OUT_APPS, fanOutEnv, PUBLISH_CONCURRENCY, PUBLISH_LATENCY_MS, publishNowTo, warmUpPublishNow } from './fan-out-accounts';
import { hasPgbench, PgbenchFigure, pgbenchInsertRate } from './pgbench-baseline';
import { memoryOf, resetPeak } from './process-memory';
import { reportFigures } from './report';
import { formatRow, measure, Measured } from './stats';
import { runScript } from './run-script';
import { formatWarmUp, warmUp } from './warm-up';

/**
 * npm run bench: end-to-end draft creation through the gateway against
 * baselines of plain single-row inserts measured in the same run (pgbench when
 * it is on the PATH, and node-pg inserts), each app's memory at idle and under
 * the create load, publishNow to 10 accounts at c=1 and c=8, and list latency
 * with 1,000,000 posts in the read model (BENCH_LIST_ROWS=0 leaves it out).
 * Beside each rate, what one operation costs (bench/cpu-accounting.ts): CPU ms
 * of every app process, of PostgreSQL's backends and of nats-server (the
 * bench's own), SQL statements and NATS messages. Figures go in the README.
 */
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
// About ten seconds of drafts, as pgbench (the baseline) runs for ten: the periodic costs (autovacuum, checkpoints) fall inside both windows.
const CREATES = Number(process.env.BENCH_CREATES ?? 30_000);
const LIST_ROWS = Number(process.env.BENCH_LIST_ROWS ?? 1_000_000);
const LIST_REQUESTS = Number(process.env.BENCH_LIST_REQUESTS ?? 2000);
const PUBLISH_REQUESTS = Number(process.env.BENCH_PUBLISH_REQUESTS ?? 40);
// BENCH_PUBLISH_REQUESTS=0 leaves publishNow out.
const PUBLISHING = PUBLISH_REQUESTS > 0;
// Drafts before those measured (bench/warm-up.ts), in rounds whose rates show the warm-up.
const WARM_UP_DRAFTS = Number(process.env.BENCH_WARM_UP_DRAFTS ?? 30_000);
const WARM_UP_ROUND = 5000;
const PGBENCH_SECONDS = 10;
// The publishNow apps and the webhooks service, which consumes every event (with no endpoint configured here: what it costs for nothing).
const APPS = [...FAN_OUT_APPS.slice(0, -1), 'webhooks', 'gateway'];

async function main(): Promise<void> {
  // PostgreSQL's own client first, on a server nothing else is using yet.
  const pgbench: PgbenchFigure | null = (await hasPgbench()) ? await pgbenchInsertRate(CONCURRENCY, PGBENCH_SECONDS) : null;
  // The node-pg baseline's pool: at most 16 connections (the machine's server is shared, 100 connections in all).
  const db = await createBenchDatabase(Math.min(CONCURRENCY, 16));
  const sandbox = await startPlatformSandbox();
  const nats = await BenchNats.start();
  const results: Measured[] = [];
  let service: Awaited<ReturnType<typeof startService>> | null = null;
  try {
    const workspace = await db.store.createWorkspace('bench');
    const { key } = await db.store.createKey(workspace.id, ['read', 'write', 'publish']);
    const fanOutAccounts = await connectFanOutAccounts(db, sandbox, workspace.id);
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

    service = await startService(db, APPS, fanOutEnv(sandbox), nats.url);
    const cpu = new CpuAccounting(service, db.pool, nats);
    // The load comes from undici's own request API on one keep-alive connection per client, not from
    // fetch: on two cores the client shares the machine with the service, and fetch's WHATWG layers
    // cost it about 0.5 ms per draft, as much CPU as the gateway (pgbench, the baseline, is a C client).
    const http = new HttpPool(service.url, { connections: CONCURRENCY });
    const post = async (body: unknown): Promise<number> => {
      const response = await http.request({
        path: '/api/v1/posts',
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      await response.body.dump();
      return response.statusCode;
    };
    const idle = Object.fromEntries(APPS.map((app) => [app, memoryOf(service!.pids[app]).rssMb]));
    // Warm-up (JIT, pools, caches), not measured: a long-running service is warm (bench/warm-up.ts).
    const draftWarmUp = await warmUp(WARM_UP_DRAFTS, WARM_UP_ROUND, CONCURRENCY, async () => {
      await post({ content: 'warm-up', accounts: ['x:@bench'] });
    });
    for (const app of APPS) resetPeak(service.pids[app]);
    const refusedDrafts = new Map<number, number>();
    const clientCpuBefore = process.cpuUsage();
    const { result: creates, cost: perDraft } = await cpu.around(CREATES, () =>
      measure(`POST /api/v1/posts draft (c=${CONCURRENCY})`, CREATES, CONCURRENCY, async (i) => {
        const status = await post({ content: `Bench post ${i}`, accounts: ['x:@bench'] });
        // Counted, not fatal: on a loaded machine a draft may outwait the read-your-writes bound (503); the run says how many.
        if (status !== 201) refusedDrafts.set(status, (refusedDrafts.get(status) ?? 0) + 1);
      }),
    );
    results.push(creates);
    const clientCpu = process.cpuUsage(clientCpuBefore);
    const clientCpuMsPerDraft = (clientCpu.user + clientCpu.system) / 1000 / CREATES;
    await http.close();
    const underLoad = Object.fromEntries(APPS.map((app) => [app, memoryOf(service!.pids[app])]));

    // publishNow to ten accounts whose platform takes PUBLISH_LATENCY_MS a publish.
    const publishFailures = new Map<string, number>();
    const publish = publishNowTo(service.url, key, fanOutAccounts, publishFailures);
    // The publisher has been idle through the drafts.
    if (PUBLISHING) await warmUpPublishNow(publish);
    const { result: publishes, cost: perPublishAccount } = await cpu.around(PUBLISH_REQUESTS * 2 * fanOutAccounts.length, async () =>
      PUBLISHING
        ? [
            await measure(`publishNow to ${fanOutAccounts.length} accounts (c=1)`, PUBLISH_REQUESTS, 1, publish),
            await measure(`publishNow to ${fanOutAccounts.length} accounts (c=${PUBLISH_CONCURRENCY})`, PUBLISH_REQUESTS, PUBLISH_CONCURRENCY, publish),
          ]
        : [],
    );
    results.push(...publishes);

    // 1,000,000 posts in the read model for this workspace, written directly (the projection's table).
    const lists: Measured[] = LIST_ROWS > 0 ? await measureLists() : [];
    results.push(...lists);
    async function measureLists(): Promise<Measured[]> {
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
    return [
      await measure(`GET /api/v1/posts at ${LIST_ROWS} posts (c=1)`, LIST_REQUESTS, 1, () => get('/api/v1/posts')),
      await measure(`GET /api/v1/posts?status=failed&limit=50 (c=1)`, LIST_REQUESTS, 1, () => get('/api/v1/posts?status=failed&limit=50')),
      await measure(`GET /api/v1/posts at ${LIST_ROWS} posts (c=${CONCURRENCY})`, LIST_REQUESTS * 2, CONCURRENCY, () => get('/api/v1/posts')),
    ];
    }

    process.stdout.write(`\n${formatWarmUp('drafts', draftWarmUp)}\n`);
    process.stdout.write(`\n${'benchmark'.padEnd(44)} ${'count'.padStart(7)} ${'rate'.padStart(11)}\n`);
    for (const m of results) process.stdout.write(`${formatRow(m)}\n`);
    if (pgbench) process.stdout.write(`${'baseline: pgbench single-row INSERT'.padEnd(44)} ${'-'.padStart(7)} ${pgbench.perSecond.toFixed(0).padStart(9)}/s   (c=${pgbench.clients}, ${pgbench.seconds} s)\n`);
    const percentOf = (rate: number) => ((creates.perSecond / rate) * 100).toFixed(1);
    process.stdout.write(`\nend-to-end draft creation / node-pg insert throughput: ${percentOf(baseline.perSecond)}%\n`);
    if (refusedDrafts.size > 0) process.stdout.write(`drafts not answered 201: ${JSON.stringify(Object.fromEntries(refusedDrafts))}\n`);
    process.stdout.write(`end-to-end draft creation / pgbench insert throughput: ${pgbench ? `${percentOf(pgbench.perSecond)}%` : 'pgbench is not on the PATH'}\n`);
    if (publishFailures.size > 0) process.stdout.write(`publishNow not published in full: ${JSON.stringify(Object.fromEntries(publishFailures))}\n`);
    for (const m of publishes) process.stdout.write(`${m.name}: p50 ${(m.p50 / PUBLISH_LATENCY_MS).toFixed(2)}x the ${PUBLISH_LATENCY_MS} ms floor\n`);
    // CPU per draft in the same run's unit, what one pgbench insert cost (a slower machine scales both).
    if (pgbench) process.stdout.write(`\nCPU per draft / CPU per pgbench insert (pgbench and its backends, ${pgbench.cpuMsPerInsert.toFixed(3)} ms): ${(perDraft.cpuMs.total / pgbench.cpuMsPerInsert).toFixed(1)}x\n`);
    process.stdout.write(`\n${formatCost('draft', perDraft)}\n`);
    process.stdout.write(`CPU per draft of the load generator (this process, not in the figures above): ${clientCpuMsPerDraft.toFixed(3)} ms\n`);
    if (PUBLISHING) process.stdout.write(`\n${formatCost('publishNow account', perPublishAccount)}\n`);
    process.stdout.write(`\n${'app'.padEnd(12)} ${'RSS idle'.padStart(10)} ${'RSS after creates'.padStart(18)} ${'peak under creates'.padStart(19)}\n`);
    for (const app of APPS) {
      process.stdout.write(`${app.padEnd(12)} ${`${idle[app].toFixed(0)} MB`.padStart(10)} ${`${underLoad[app].rssMb.toFixed(0)} MB`.padStart(18)} ${`${underLoad[app].peakMb.toFixed(0)} MB`.padStart(19)}\n`);
    }
    reportFigures('posts', {
      pgbenchInsertPerSecond: pgbench?.perSecond ?? null,
      pgbenchCpuMsPerInsert: pgbench?.cpuMsPerInsert ?? null,
      draftCpuOverPgbenchInsertCpu: pgbench ? perDraft.cpuMs.total / pgbench.cpuMsPerInsert : null,
      nodeInsertPerSecond: baseline.perSecond,
      draftWarmUp: { drafts: WARM_UP_DRAFTS, draftsPerRound: WARM_UP_ROUND, roundsPerSecond: draftWarmUp.rounds.map(Math.round), steady: draftWarmUp.steady },
      creates: { perSecond: creates.perSecond, p50Ms: creates.p50, p99Ms: creates.p99, concurrency: CONCURRENCY, notCreated: Object.fromEntries(refusedDrafts) },
      createsOverPgbench: pgbench ? creates.perSecond / pgbench.perSecond : null,
      createsOverNodeInsert: creates.perSecond / baseline.perSecond,
      publishNow: publishes.map((m) => ({ name: m.name, count: m.count, p50Ms: m.p50, p99Ms: m.p99, p50OverFloor: m.p50 / PUBLISH_LATENCY_MS })),
      perDraft: summary(perDraft),
      loadGeneratorCpuMsPerDraft: clientCpuMsPerDraft,
      perPublishNowAccount: PUBLISHING ? summary(perPublishAccount) : null,
      lists: lists.map((m) => ({ name: m.name, perSecond: m.perSecond, p50Ms: m.p50, p99Ms: m.p99 })),
      rssMb: Object.fromEntries(APPS.map((app) => [app, { idle: idle[app], afterCreates: underLoad[app].rssMb, peakUnderCreates: underLoad[app].peakMb }])),
    });
  } finally {
    service?.stop();
    await db.drop();
    await nats.stop();
    await sandbox.close();
  }
}

/** The figures two runs are compared on, rounded for the JSON line. */
function summary(cost: CostPerOperation) {
  const round = (value: number | null) => (value === null ? null : Math.round(value * 1000) / 1000);
  return {
    cpuMs: { ...Object.fromEntries(Object.entries(cost.cpuMs.apps).map(([app, v]) => [app, round(v)])), apps: round(cost.cpuMs.appsTotal), postgres: round(cost.cpuMs.postgres), nats: round(cost.cpuMs.nats), total: round(cost.cpuMs.total) },
    sqlStatements: round(cost.sqlStatements),
    transactions: round(cost.transactions),
    natsMessagesSent: round(cost.natsMessagesSent),
    natsServerMessages: round(cost.natsServerMessages),
    syscalls: round(cost.syscalls),
    syscallsByApp: Object.fromEntries(Object.entries(cost.syscallsByApp).map(([app, v]) => [app, round(v)])),
  };
}

runScript(main);

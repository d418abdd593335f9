import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { AppConfig } from '@app/config';
import { startPlatformSandbox } from '@app/platform-sandbox';
import { createAnalyticsApp } from '../apps/analytics/src/analytics.app';
import { MetricsCollector } from '../apps/analytics/src/collect/metrics-collector';
import { collectionsPerItem, nextCollectionAt } from '../apps/analytics/src/domain/collection-schedule';
import { connectSandboxAccount } from '../tools/local/connect-sandbox-account';
import { createBenchDatabase, NATS_URL, startService } from './bench-environment';
import { reportFigures } from './report';
import { runScript } from './run-script';

/**
 * npm run bench:analytics: what collecting analytics costs per 1,000 tracked posts per day.
 * POSTS posts are published for real (HTTP → posts → publisher → the sandbox, on Mastodon and
 * Bluesky), their items are given ages spread evenly over the 90 days the default schedule
 * tracks them (the steady state of an account that posts every day), and one simulated day is
 * run: the collector's clock moves in SIM_STEP_MIN steps and each step is one collection pass.
 * Reported: platform calls, CPU of the bench process (the collector and the in-process sandbox
 * answering it: an upper bound for the collector) and of the projector process (folding the
 * observations into the read models, relaying them), each per 1,000 tracked posts per day.
 */
const POSTS = Number(process.env.BENCH_ANALYTICS_POSTS ?? 1000);
const SIM_STEP_MIN = Number(process.env.BENCH_ANALYTICS_STEP_MIN ?? 5);
const DAY_MS = 24 * 3600_000;
const CONCURRENCY = 8;

/** utime + stime of a process in ms (Linux: /proc/<pid>/stat, in clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function main(): Promise<void> {
  const sandbox = await startPlatformSandbox();
  const db = await createBenchDatabase(10);
  let service: Awaited<ReturnType<typeof startService>> | null = null;
  let analytics: Awaited<ReturnType<typeof createAnalyticsApp>> | null = null;
  try {
    const workspace = await db.store.createWorkspace('analytics bench');
    const { key } = await db.store.createKey(workspace.id, ['write', 'publish']);
    const accounts: Array<{ id: string }> = [];
    for (const platform of ['mastodon', 'bluesky'] as const) {
      accounts.push(await connectSandboxAccount(db.accounts, sandbox, { workspaceId: workspace.id, platform, handle: `@bench_${platform}`, key: `bench-${platform}` }));
    }
    service = await startService(db, ['projector', 'posts', 'publisher', 'gateway'], { PLATFORM_SANDBOX_URL: sandbox.url });
    let next = 0;
    const publishStarted = Date.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < POSTS) {
          const i = next++;
          const response = await fetch(`${service!.url}/api/v1/posts`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ content: `analytics bench ${i}`, accounts: [accounts[i % accounts.length].id], publishNow: true }),
          });
          if (response.status !== 201) throw new Error(`publishNow answered ${response.status} ${(await response.text()).slice(0, 300)}`);
        }
      }),
    );
    process.stdout.write(`published ${POSTS} posts in ${((Date.now() - publishStarted) / 1000).toFixed(1)} s\n`);
    // Every post ended (a platform's rate limit may fail some: those are not tracked), within two minutes.
    for (const deadline = Date.now() + 120_000; ; ) {
      const { rows } = await db.pool.query<{ ended: number }>(`SELECT count(*)::int AS ended FROM post_views WHERE status IN ('published', 'partial', 'failed')`);
      if (rows[0].ended === POSTS) break;
      if (Date.now() > deadline) throw new Error(`${POSTS - rows[0].ended} posts still not ended after two minutes`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }

    // The collector in this process, on a clock the bench moves; its own timer never fires during the run.
    let offsetMs = 0;
    const config = AppConfig.fromEnv({ ...process.env, DATABASE_URL: db.url, NATS_URL, NATS_NAMESPACE: service.namespace, TOKEN_ENCRYPTION_KEY: db.tokenKey, PLATFORM_SANDBOX_URL: sandbox.url }).with({
      analyticsTickMs: DAY_MS,
      now: () => new Date(Date.now() + offsetMs),
    });
    analytics = await createAnalyticsApp(config, { logger: ['error'] });
    await analytics.init();
    const collector = analytics.get(MetricsCollector);
    await collector.pass(); // finds the items (and collects the ones due at once: none, the first is 5 minutes after publishing)
    // Ages spread evenly over the tracked 90 days; each item next due at its schedule's next slot after now.
    const schedule = config.analyticsSchedule;
    const end = schedule.steps.at(-1)!.untilMs;
    const now = Date.now();
    const { rows: items } = await db.pool.query<{ post_id: string; account_id: string }>('SELECT post_id, account_id FROM metrics_collection_items ORDER BY post_id');
    if (items.length === 0) throw new Error('no published item to track');
    const tracked = items.length;
    process.stdout.write(`tracking ${tracked} published items\n`);
    const seeded = items.map((item, i) => {
      const publishedAt = new Date(now - ((i + 0.5) / items.length) * end);
      let due = nextCollectionAt(schedule, publishedAt, null);
      while (due && due.getTime() < now) due = nextCollectionAt(schedule, publishedAt, due);
      return { ...item, published_at: publishedAt.toISOString(), next_due_at: due?.toISOString() ?? null };
    });
    await db.pool.query(
      `UPDATE metrics_collection_items m SET published_at = s.published_at, next_due_at = s.next_due_at
       FROM jsonb_to_recordset($1::jsonb) AS s(post_id uuid, account_id uuid, published_at timestamptz, next_due_at timestamptz)
       WHERE m.post_id = s.post_id AND m.account_id = s.account_id`,
      [JSON.stringify(seeded)],
    );

    const before = { calls: collector.totals.platformCalls, cpu: process.cpuUsage(), projector: cpuMsOf(service.pids.projector), wall: Date.now() };
    const collectedBefore = collector.totals.itemsCollected;
    for (let simulated = SIM_STEP_MIN * 60_000; simulated <= DAY_MS; simulated += SIM_STEP_MIN * 60_000) {
      offsetMs = simulated;
      await collector.pass();
    }
    const cpu = process.cpuUsage(before.cpu);
    const benchCpuMs = (cpu.user + cpu.system) / 1000;
    const projectorCpuMs = cpuMsOf(service.pids.projector) - before.projector;
    const calls = collector.totals.platformCalls - before.calls;
    const per1000 = (value: number) => (value * 1000) / tracked;
    const figures = {
      trackedPosts: tracked,
      simulatedHours: 24,
      passes: DAY_MS / (SIM_STEP_MIN * 60_000),
      itemsCollected: collector.totals.itemsCollected - collectedBefore,
      accountsPaused: collector.totals.accountsPaused,
      platformCallsPer1000PostsPerDay: Math.round(per1000(calls)),
      // The schedule's average when about 1000/90 new posts arrive every day (this run adds none that day: its young items are fewer).
      steadyStateCallsPer1000PostsPerDay: Math.round((collectionsPerItem(schedule) / (end / DAY_MS)) * 1000),
      collectorAndSandboxCpuMsPer1000PostsPerDay: Math.round(per1000(benchCpuMs)),
      projectorCpuMsPer1000PostsPerDay: Math.round(per1000(projectorCpuMs)),
      cpuMsPerCall: Number((benchCpuMs / Math.max(1, calls)).toFixed(2)),
      wallSeconds: Number(((Date.now() - before.wall) / 1000).toFixed(1)),
      collectionsPerItemOver90Days: collectionsPerItem(schedule),
    };
    process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
    reportFigures('analytics', figures);
  } finally {
    await analytics?.close();
    service?.stop();
    await db.drop();
    await sandbox.close();
  }
}

runScript(main);

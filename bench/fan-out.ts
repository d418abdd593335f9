import 'reflect-metadata';
import { startPlatformSandbox } from '@app/platform-sandbox';
import { BenchNats } from './bench-nats';
import { createBenchDatabase, startService } from './bench-environment';
import { CpuAccounting, formatCost } from './cpu-accounting';
import { connectFanOutAccounts, FAN_OUT_APPS, fanOutEnv, PUBLISH_CONCURRENCY, PUBLISH_LATENCY_MS as LATENCY_MS, publishNowTo, warmUpPublishNow } from './fan-out-accounts';
import { reportFigures } from './report';
import { formatRow, measure } from './stats';
import { runScript } from './run-script';

/**
 * npm run bench:fan-out: publishNow to 10 accounts whose platform answers each
 * publish after 100 ms (sandbox latency). Accounts are published in parallel,
 * so the answer should take about one platform round trip, not ten. Targets
 * (issue 11): p50 ≤ 1.3× the 100 ms floor at c=1, ≤ 2× at c=8. CPU per
 * publishNow account for every process (bench/cpu-accounting.ts).
 */
const REQUESTS = Number(process.env.BENCH_FANOUT_REQUESTS ?? 40);
const TARGETS = { sequential: 1.3, concurrent: 2 };

async function main(): Promise<void> {
  const sandbox = await startPlatformSandbox();
  const nats = await BenchNats.start();
  const db = await createBenchDatabase(5);
  let service: Awaited<ReturnType<typeof startService>> | null = null;
  try {
    const workspace = await db.store.createWorkspace('fan-out bench');
    const { key } = await db.store.createKey(workspace.id, ['write', 'publish']);
    const accounts = await connectFanOutAccounts(db, sandbox, workspace.id);
    service = await startService(db, FAN_OUT_APPS, fanOutEnv(sandbox), nats.url);
    const publishFailures = new Map<string, number>();
    const publish = publishNowTo(service.url, key, accounts, publishFailures);
    const cpu = new CpuAccounting(service, db.pool, nats);
    await warmUpPublishNow(publish);
    const { result: [sequential, concurrent], cost } = await cpu.around(REQUESTS * 2 * accounts.length, async () => [
      await measure(`publishNow to ${accounts.length} accounts (c=1)`, REQUESTS, 1, publish),
      await measure(`publishNow to ${accounts.length} accounts (c=${PUBLISH_CONCURRENCY})`, REQUESTS, PUBLISH_CONCURRENCY, publish),
    ]);
    process.stdout.write(`\nplatform latency per publish: ${LATENCY_MS} ms; ten in a row would take ${LATENCY_MS * accounts.length} ms\n`);
    const rows = [
      { m: sequential, target: TARGETS.sequential },
      { m: concurrent, target: TARGETS.concurrent },
    ];
    for (const { m, target } of rows) {
      const met = m.p50 / LATENCY_MS <= target ? 'met' : 'NOT met';
      process.stdout.write(`${formatRow(m)}   p50/floor ${(m.p50 / LATENCY_MS).toFixed(2)}x (target ≤ ${target}x: ${met})   p99/floor ${(m.p99 / LATENCY_MS).toFixed(2)}x\n`);
    }
    if (publishFailures.size > 0) process.stdout.write(`publishNow not published in full: ${JSON.stringify(Object.fromEntries(publishFailures))}\n`);
    process.stdout.write(`\n${formatCost('publishNow account', cost)}\n`);
    reportFigures('fan-out', {
      accounts: accounts.length,
      platformLatencyMs: LATENCY_MS,
      runs: rows.map(({ m, target }) => ({ name: m.name, count: m.count, p50Ms: m.p50, p99Ms: m.p99, p50OverFloor: m.p50 / LATENCY_MS, target, met: m.p50 / LATENCY_MS <= target })),
      perPublishNowAccount: cost,
    });
  } finally {
    service?.stop();
    await db.drop();
    await nats.stop();
    await sandbox.close();
  }
}

runScript(main);

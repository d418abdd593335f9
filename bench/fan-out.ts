import 'reflect-metadata';
import { Platform } from '@app/contracts';
import { startPlatformSandbox } from '@app/platform-sandbox';
import { connectSandboxAccount } from '../tools/local/connect-sandbox-account';
import { createBenchDatabase, startService } from './bench-environment';
import { reportFigures } from './report';
import { formatRow, measure } from './stats';
import { runScript } from './run-script';

/**
 * npm run bench:fan-out: publishNow to 10 accounts whose platform answers each
 * publish after 100 ms (sandbox latency). Accounts are published in parallel,
 * so the answer should take about one platform round trip, not ten. Targets
 * (issue 11): p50 ≤ 1.3× the 100 ms floor at c=1, ≤ 2× at c=8.
 */
const LATENCY_MS = 100;
const REQUESTS = Number(process.env.BENCH_FANOUT_REQUESTS ?? 40);
const CONCURRENT = 8;
const TARGETS = { sequential: 1.3, concurrent: 2 };
const ACCOUNTS: Array<{ platform: Platform; handle: string }> = (['x', 'facebook', 'linkedin', 'bluesky', 'mastodon'] as Platform[]).flatMap((platform) => [
  { platform, handle: `@${platform}_one` },
  { platform, handle: `@${platform}_two` },
]);

async function main(): Promise<void> {
  const sandbox = await startPlatformSandbox();
  const db = await createBenchDatabase(5);
  let service: Awaited<ReturnType<typeof startService>> | null = null;
  try {
    const workspace = await db.store.createWorkspace('fan-out bench');
    const { key } = await db.store.createKey(workspace.id, ['write', 'publish']);
    for (const account of ACCOUNTS) {
      const key = `bench-${account.platform}-${account.handle}`;
      await connectSandboxAccount(db.accounts, sandbox, { workspaceId: workspace.id, platform: account.platform, handle: account.handle, key });
      sandbox.control.addFault({ platform: account.platform, account: key, operation: 'publish', times: 'always', fault: { type: 'latency', ms: LATENCY_MS } });
    }
    service = await startService(db, ['projector', 'posts', 'publisher', 'gateway'], { PLATFORM_SANDBOX_URL: sandbox.url, X_POOL_MONTHLY_POSTS: '100000' });
    const accounts = ACCOUNTS.map((a) => `${a.platform}:${a.handle}`);
    const publish = async (i: number) => {
      const response = await fetch(`${service!.url}/api/v1/posts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content: `fan-out ${i}`, accounts, publishNow: true }),
      });
      const body = (await response.json()) as { post: { status: string }; results: Array<{ success: boolean }> };
      if (response.status !== 201 || body.post.status !== 'published' || body.results.length !== ACCOUNTS.length) {
        throw new Error(`publishNow answered ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
      }
    };
    await measure('warm-up', 5, 1, publish);
    const sequential = await measure(`publishNow to ${ACCOUNTS.length} accounts (c=1)`, REQUESTS, 1, publish);
    const concurrent = await measure(`publishNow to ${ACCOUNTS.length} accounts (c=${CONCURRENT})`, REQUESTS, CONCURRENT, publish);
    process.stdout.write(`\nplatform latency per publish: ${LATENCY_MS} ms; ten in a row would take ${LATENCY_MS * ACCOUNTS.length} ms\n`);
    const rows = [
      { m: sequential, target: TARGETS.sequential },
      { m: concurrent, target: TARGETS.concurrent },
    ];
    for (const { m, target } of rows) {
      const met = m.p50 / LATENCY_MS <= target ? 'met' : 'NOT met';
      process.stdout.write(`${formatRow(m)}   p50/floor ${(m.p50 / LATENCY_MS).toFixed(2)}x (target ≤ ${target}x: ${met})   p99/floor ${(m.p99 / LATENCY_MS).toFixed(2)}x\n`);
    }
    reportFigures('fan-out', {
      accounts: ACCOUNTS.length,
      platformLatencyMs: LATENCY_MS,
      runs: rows.map(({ m, target }) => ({ name: m.name, count: m.count, p50Ms: m.p50, p99Ms: m.p99, p50OverFloor: m.p50 / LATENCY_MS, target, met: m.p50 / LATENCY_MS <= target })),
    });
  } finally {
    service?.stop();
    await db.drop();
    await sandbox.close();
  }
}

runScript(main);

import { request } from 'undici';
import { Platform } from '@app/contracts';
import { RunningPlatformSandbox } from '@app/platform-sandbox';
import { connectSandboxAccount } from '../tools/local/connect-sandbox-account';
import { BenchDatabase } from './bench-environment';
import { measure } from './stats';

/** The platform's latency for every publish: the floor a publishNow answer cannot beat. */
export const PUBLISH_LATENCY_MS = 100;

/** The concurrency of the second measured publishNow run (issue 11's target: ≤ 2× the floor), and of the warm-up. */
export const PUBLISH_CONCURRENCY = 8;

/** Ten accounts, two each on five platforms. */
const FAN_OUT_ACCOUNTS: Array<{ platform: Platform; handle: string }> = (['x', 'facebook', 'linkedin', 'bluesky', 'mastodon'] as Platform[]).flatMap((platform) => [
  { platform, handle: `@${platform}_one` },
  { platform, handle: `@${platform}_two` },
]);

/** The apps a publishNow needs, and what they need to reach the sandbox and not run out of the X pool. */
export const FAN_OUT_APPS = ['projector', 'posts', 'publisher', 'gateway'];
export const fanOutEnv = (sandbox: RunningPlatformSandbox) => ({ PLATFORM_SANDBOX_URL: sandbox.url, X_POOL_MONTHLY_POSTS: '1000000' });

/** Connects the ten accounts in the sandbox, each answering every publish after PUBLISH_LATENCY_MS; their refs ("x:@x_one"). */
export async function connectFanOutAccounts(db: BenchDatabase, sandbox: RunningPlatformSandbox, workspaceId: string): Promise<string[]> {
  for (const account of FAN_OUT_ACCOUNTS) {
    const key = `bench-${account.platform}-${account.handle}`;
    await connectSandboxAccount(db.accounts, sandbox, { workspaceId, platform: account.platform, handle: account.handle, key });
    sandbox.control.addFault({ platform: account.platform, account: key, operation: 'publish', times: 'always', fault: { type: 'latency', ms: PUBLISH_LATENCY_MS } });
  }
  return FAN_OUT_ACCOUNTS.map((a) => `${a.platform}:${a.handle}`);
}

/**
 * One publishNow to every account, checked: 201, published, a result per account. An answer that is
 * not is counted in `failures` by what it was (status and post status, and the first failed result's
 * error code), not fatal: on a loaded machine a platform call may outwait its timeout, and the run says so.
 */
export function publishNowTo(url: string, key: string, accounts: string[], failures: Map<string, number>): (i: number) => Promise<void> {
  return async (i) => {
    // undici's request API (keep-alive), not fetch: the client's own CPU competes with the service's (run.ts).
    const response = await request(`${url}/api/v1/posts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: `fan-out ${i}`, accounts, publishNow: true }),
    });
    const body = (await response.body.json()) as { post?: { status: string }; results?: Array<{ success: boolean; error?: { code?: string } }> };
    if (response.statusCode !== 201 || body.post?.status !== 'published' || body.results?.length !== accounts.length) {
      const failed = body.results?.find((r) => !r.success)?.error?.code ?? 'none';
      const what = `${response.statusCode} ${body.post?.status ?? '-'} ${failed}`;
      failures.set(what, (failures.get(what) ?? 0) + 1);
    }
  };
}

/**
 * publishNow requests, at c=8, before the measured ones (npm run bench and bench:fan-out): the
 * publisher's path warms up on publications of its own (bench/warm-up.ts says why warm-up matters).
 */
export async function warmUpPublishNow(publish: (i: number) => Promise<void>): Promise<void> {
  await measure('warm-up', 40, PUBLISH_CONCURRENCY, publish);
}

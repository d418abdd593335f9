import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Platform } from '@app/contracts';
import { TestStack, tokenOf } from '../support/test-stack';

/**
 * A NATS server of this test's own (the machine's is shared with every other
 * test), killed while a publication is in flight and started again on the same
 * port and storage: nothing is published twice and the post still ends.
 */
const natsServer = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v nats-server'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
})();
if (!natsServer) console.warn('NATS restart test skipped: no nats-server on the PATH');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function untilListening(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = new Socket().once('connect', () => resolve(true)).once('error', () => resolve(false));
      socket.connect(port, '127.0.0.1');
    }).finally(() => undefined);
    if (up) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nats-server did not start on ${port}`);
}

(natsServer ? describe : describe.skip)('publishing across a NATS restart', () => {
  let stack: TestStack;
  let server: ChildProcess;
  let port: number;
  let storeDir: string;

  const startNats = async () => {
    server = spawn(natsServer!, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], { stdio: 'ignore' });
    await untilListening(port);
  };

  beforeAll(async () => {
    port = await freePort();
    storeDir = mkdtempSync(join(tmpdir(), 'nats-restart-'));
    await startNats();
    stack = await TestStack.start({
      sandbox: true,
      overrides: { natsUrl: `nats://127.0.0.1:${port}`, publisherAckWaitMs: 2_000, publisherMaxDeliver: 5, publishWaitMs: 200, commandTimeoutMs: 3_000 },
    });
  });
  afterAll(async () => {
    await stack.stop();
    server.kill('SIGKILL');
    rmSync(storeDir, { recursive: true, force: true });
  });

  it('a publication in flight when NATS dies is published once per account and ends published', async () => {
    const { workspaceId, key } = await stack.workspace();
    // Platforms whose posts can be looked up, so an interrupted account is reconciled rather than given up.
    const platforms: Platform[] = ['facebook', 'mastodon', 'bluesky'];
    const accounts = [];
    for (const platform of platforms) {
      const account = await stack.connect(workspaceId, platform, `@restart_${platform}`);
      accounts.push(account.id);
      stack.sandbox!.control.addFault({ platform, account: tokenOf(account.handle), operation: 'publish', times: 'always', fault: { type: 'latency', ms: 1_500 } });
    }
    const created = await stack.request('POST', '/api/v1/posts', { key, body: { content: 'through the outage', accounts, publishNow: true } });
    expect(created.status).toBe(202);
    const id = created.body.post.id;

    // The three platform calls are in flight (held by the sandbox): NATS goes away, then comes back.
    await new Promise((r) => setTimeout(r, 700));
    server.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 1_500));
    await startNats();

    let post: { status: string; results: Array<{ success: boolean }> } = { status: 'publishing', results: [] };
    for (let i = 0; i < 150 && post.status === 'publishing'; i++) {
      await new Promise((r) => setTimeout(r, 200));
      post = (await stack.request('GET', `/api/v1/posts/${id}`, { key })).body.post;
    }
    expect(post.status).toBe('published');
    expect(post.results.map((r) => r.success)).toEqual([true, true, true]);
    for (const platform of platforms) {
      expect(stack.sandbox!.control.published({ platform, kind: 'post' }).filter((item) => item.text === 'through the outage')).toHaveLength(1);
    }

    // And the service carries on after the restart.
    const after = await stack.request('POST', '/api/v1/posts', { key, body: { content: 'after the outage', accounts: [accounts[0]] } });
    expect(after.status).toBe(201);
  }, 60_000);
});

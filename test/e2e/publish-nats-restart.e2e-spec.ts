import { Platform } from '@app/contracts';
import { usePrivateInfraStack } from '../support/private-infra-stack';
import { tokenOf } from '../support/test-stack';

/**
 * A NATS server of this test's own (the machine's is shared with every other
 * test), killed while a publication is in flight and started again on the same
 * port and storage: nothing is published twice and the post still ends.
 */
describe('publishing across a NATS restart', () => {
  const env = usePrivateInfraStack({ sandbox: true, overrides: { publisherAckWaitMs: 2_000, publisherMaxDeliver: 5, publishWaitMs: 200, commandTimeoutMs: 3_000 } });

  it('a publication in flight when NATS dies is published once per account and ends published', async () => {
    const { workspaceId, key } = await env.stack.workspace();
    // Platforms whose posts can be looked up, so an interrupted account is reconciled rather than given up.
    const platforms: Platform[] = ['facebook', 'mastodon', 'bluesky'];
    const accounts = [];
    for (const platform of platforms) {
      const account = await env.stack.connect(workspaceId, platform, `@restart_${platform}`);
      accounts.push(account.id);
      env.stack.sandbox!.control.addFault({ platform, account: tokenOf(account.handle), operation: 'publish', times: 'always', fault: { type: 'latency', ms: 1_500 } });
    }
    const created = await env.stack.request('POST', '/api/v1/posts', { key, body: { content: 'through the outage', accounts, publishNow: true } });
    expect(created.status).toBe(202);
    const id = created.body.post.id;

    // The three platform calls are in flight (held by the sandbox): NATS goes away, then comes back.
    await new Promise((r) => setTimeout(r, 700));
    await env.infra.nats.kill();
    await new Promise((r) => setTimeout(r, 1_500));
    await env.infra.nats.start();

    let post: { status: string; results: Array<{ success: boolean }> } = { status: 'publishing', results: [] };
    for (let i = 0; i < 150 && post.status === 'publishing'; i++) {
      await new Promise((r) => setTimeout(r, 200));
      post = (await env.stack.request('GET', `/api/v1/posts/${id}`, { key })).body.post;
    }
    expect(post.status).toBe('published');
    expect(post.results.map((r) => r.success)).toEqual([true, true, true]);
    for (const platform of platforms) {
      expect(env.stack.sandbox!.control.published({ platform, kind: 'post' }).filter((item) => item.text === 'through the outage')).toHaveLength(1);
    }

    // And the service carries on after the restart.
    const after = await env.stack.request('POST', '/api/v1/posts', { key, body: { content: 'after the outage', accounts: [accounts[0]] } });
    expect(after.status).toBe(201);
  }, 60_000);
});

import { Platform } from '@app/contracts';
import { TestStack, tokenOf } from '../support/test-stack';

/**
 * Nothing published twice, nothing stuck: a publisher stopped in the middle of
 * a batch, and a platform answer lost after the post was made.
 */
describe('publishing survives a publisher crash and lost answers', () => {
  const ACK_WAIT_MS = 1_000;
  let stack: TestStack;
  let key: string;
  let workspaceId: string;
  let seq = 0;

  beforeAll(async () => {
    stack = await TestStack.start({ sandbox: true, overrides: { publisherAckWaitMs: ACK_WAIT_MS, publisherMaxDeliver: 3, publishWaitMs: 500 } });
    ({ key, workspaceId } = await stack.workspace());
  });
  afterAll(() => stack.stop());

  const sandbox = () => stack.sandbox!.control;
  async function account(platform: Platform) {
    const handle = `@${platform}${++seq}`;
    const connected = await stack.connect(workspaceId, platform, handle);
    return { id: connected.id, token: tokenOf(connected.handle), ref: `${platform}:${connected.handle}` };
  }
  async function finalPost(id: string, timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { body } = await stack.request('GET', `/api/v1/posts/${id}`, { key });
      if (body.post.status !== 'publishing' || Date.now() > deadline) return body.post;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('a publisher stopped while a platform holds a publish: restarted, it publishes nothing twice and every post ends', async () => {
    const slow = await account('mastodon');
    const others = [await account('facebook'), await account('bluesky')];
    // The platform holds the three slow publishes until the publisher has stopped: longer than the one ack wait
    // of grace the stopping publisher gives its running jobs, however slowly the machine runs (a latency would race it).
    const hold = sandbox().addFault({ platform: 'mastodon', account: slow.token, fault: { type: 'hold' } });
    const creating = Promise.all([0, 1, 2].map((i) =>
      stack.request('POST', '/api/v1/posts', { key, body: { content: `Batch ${i}`, accounts: [slow.ref, ...others.map((o) => o.ref)], publishNow: true } }),
    ));
    // Stop the publisher the moment the platform holds all three slow publishes.
    while (sandbox().requestCount({ account: slow.token, operation: 'publish' }) < 3) await new Promise((r) => setTimeout(r, 10));
    await stack.stopApp('publisher');
    // Only now does the platform make the posts and answer: to a publisher that can no longer record the answers.
    sandbox().removeFault(hold.id);
    await stack.startApp('publisher');
    const created = await creating;
    expect(created.map((c) => c.status)).toEqual([202, 202, 202]);
    const posts = await Promise.all(created.map((c) => finalPost(c.body.post.id)));
    expect(posts.map((p) => p.status).every((s: string) => ['published', 'partial'].includes(s))).toBe(true);
    for (const a of [slow, ...others]) {
      const texts = sandbox().published({ account: a.token, kind: 'post' }).map((item) => item.text).sort();
      // At most one publication per post and account; the interrupted ones are reconciled, never resent.
      expect(new Set(texts).size).toBe(texts.length);
      expect(sandbox().requestCount({ account: a.token, operation: 'publish' })).toBe(texts.length);
    }
    for (const post of posts) expect(post.results).toHaveLength(3);
    expect(sandbox().published({ account: slow.token, kind: 'post' })).toHaveLength(3);
    // The stopped publisher never recorded the slow answers: the restarted one found the three posts on the platform.
    const { rows } = await stack.db.pool.query(`SELECT count(*)::int AS n FROM events WHERE type = 'AccountPublished' AND (data->>'reconciled')::boolean`);
    expect(rows[0].n).toBe(3);
  });

  it('a dropped answer after the post was made is reconciled as published, with one publication', async () => {
    const facebook = await account('facebook');
    sandbox().addFault({ platform: 'facebook', account: facebook.token, fault: { type: 'drop' } });
    const created = await stack.request('POST', '/api/v1/posts', { key, body: { content: 'Dropped answer', accounts: [facebook.ref], publishNow: true } });
    const post = await finalPost(created.body.post.id);
    const published = sandbox().published({ account: facebook.token, kind: 'post' });
    expect(published).toHaveLength(1);
    expect(post).toMatchObject({ status: 'published', results: [{ accountId: facebook.id, success: true, postId: published[0].id }] });
  });
});

import { until } from '@app/testing';
import { TestStack, tokenOf } from '../support/test-stack';

/**
 * A posts write the service recorded is never answered with an error, even when the
 * read model cannot show it: with no projector running, every posts write answers 202
 * with the post's id and Location (a 503 would say "nothing created", and a client
 * would send again a post that went live). Once a projector runs, the post is there.
 */
describe('posts writes recorded while the read model cannot show them', () => {
  let stack: TestStack;
  let key: string;
  let workspaceId: string;

  beforeAll(async () => {
    // Every app but the projector: commands are recorded, post_views stays empty (and nothing is relayed yet).
    // The read-model wait is short (each unreadable write waits it out) but long enough for a caught-up
    // projector to show one draft on a loaded machine (the last write).
    stack = await TestStack.start({ apps: ['posts', 'accounts', 'publisher', 'gateway'], sandbox: true, overrides: { projectionWaitMs: 2_000, publishWaitMs: 2_500 } });
    ({ key, workspaceId } = await stack.workspace());
  });
  afterAll(() => stack.stop());

  const expectRecorded = (response: { status: number; headers: Headers; body: { post?: { id?: string }; note?: string } }) => {
    expect(response.status).toBe(202);
    const id = response.body.post?.id;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get('location')).toBe(`/api/v1/posts/${id}`);
    expect(response.body).toEqual({ post: { id }, note: expect.any(String) });
    return id!;
  };

  it('publishNow without an Idempotency-Key: 202 with the id and Location, then published once and shown once a projector runs', async () => {
    const account = await stack.connect(workspaceId, 'mastodon', '@recorded');
    const before = await stack.eventCount();
    const published = await stack.request('POST', '/api/v1/posts', { key, body: { content: 'live while unreadable', accounts: [account.id], publishNow: true } });
    const id = expectRecorded(published);
    // Recorded: its events are stored (the projector's relay carries them on once it runs).
    expect(await stack.eventCount()).toBeGreaterThan(before);

    // A draft, its edit, and its deletion: each recorded, each 202 (the deletion with no body).
    const draft = expectRecorded(await stack.request('POST', '/api/v1/posts', { key, body: { content: 'draft while unreadable', accounts: [account.id] } }));
    expect(expectRecorded(await stack.request('PATCH', `/api/v1/posts/${draft}`, { key, body: { content: 'edited while unreadable' } }))).toBe(draft);
    const toDelete = expectRecorded(await stack.request('POST', '/api/v1/posts', { key, body: { content: 'deleted while unreadable', accounts: [account.id] } }));
    const deleted = await stack.request('DELETE', `/api/v1/posts/${toDelete}`, { key });
    expect({ status: deleted.status, body: deleted.body }).toEqual({ status: 202, body: null });

    await stack.startApp('projector');
    await until(async () => (await stack.request('GET', `/api/v1/posts/${id}`, { key })).body?.post?.status === 'published', 20_000);
    // Published exactly once: the 202 made no client send it again.
    const shown = await stack.request('GET', `/api/v1/posts/${draft}`, { key });
    expect(shown.body.post).toMatchObject({ id: draft, status: 'draft', content: 'edited while unreadable' });
    expect((await stack.request('GET', `/api/v1/posts/${toDelete}`, { key })).status).toBe(404);
    expect(stack.sandbox!.control.published({ account: tokenOf(account.handle), kind: 'post' })).toHaveLength(1);

    // With the read model caught up, the answers are the post again.
    const after = await stack.request('POST', '/api/v1/posts', { key, body: { content: 'readable again', accounts: [account.id] } });
    expect(after.status).toBe(201);
    expect(after.body.post).toMatchObject({ status: 'draft' });
  }, 60_000);
});

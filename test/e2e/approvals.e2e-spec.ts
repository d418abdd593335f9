import { until } from '@app/testing';
import { TestStack } from '../support/test-stack';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * Approvals (issue 23) through HTTP: a workspace that requires approval holds the posts of keys
 * without the approve scope for review; reviewers approve or reject; a held scheduled post whose
 * time comes first fails with approval_missed (never published late), and webhooks say so.
 */
describe('approvals', () => {
  let stack: TestStack;
  let receiver: WebhookReceiver;
  let workspaceId: string;
  let reviewer: string;
  let writer: string;
  let seq = 0;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    stack = await TestStack.start({
      sandbox: true,
      overrides: { schedulerIntervalMs: 100, publishWaitMs: 8_000, webhookAllowedHosts: [receiver.host], webhookDispatchIntervalMs: 200 },
    });
    ({ workspaceId, key: reviewer } = await stack.workspace(['read', 'write', 'publish', 'approve', 'webhooks']));
    writer = await stack.key(workspaceId, ['read', 'write', 'publish']);
    await stack.connect(workspaceId, 'x', '@acme');
    const hook = await stack.request('POST', '/api/v1/webhooks', {
      key: reviewer,
      body: { url: receiver.url, events: ['post.approval_requested', 'post.approved', 'post.rejected', 'post.failed', 'post.published'] },
    });
    receiver.secrets = [hook.body.secret];
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
  const create = (key: string, body: Record<string, unknown>) => stack.request('POST', '/api/v1/posts', { key, body: { content: `post ${++seq}`, accounts: ['x:@acme'], ...body } });
  const get = async (id: string) => (await stack.request('GET', `/api/v1/posts/${id}`, { key: reviewer })).body.post;
  const webhooksOf = (postId: string) => receiver.delivered.filter((r) => r.payload.data.postId === postId);

  it('reads and sets approvalRequired: read with read, changed only with the approve scope, an empty change refused', async () => {
    expect((await stack.request('GET', '/api/v1/workspace', { key: writer })).body).toEqual({ id: workspaceId, name: expect.any(String), approvalRequired: false });
    const refused = await stack.request('PATCH', '/api/v1/workspace', { key: writer, body: { approvalRequired: true } });
    expect({ status: refused.status, code: refused.body.error.code, missing: refused.body.error.details.missing }).toEqual({ status: 403, code: 'insufficient_scope', missing: ['approve'] });
    expect((await stack.request('PATCH', '/api/v1/workspace', { key: reviewer, body: {} })).body.error.code).toBe('invalid_workspace_settings');
    expect((await stack.request('PATCH', '/api/v1/workspace', { key: reviewer, body: { approvalRequired: 'yes' } })).body.error.code).toBe('invalid_body');
    const on = await stack.request('PATCH', '/api/v1/workspace', { key: reviewer, body: { approvalRequired: true } });
    expect(on.status).toBe(200);
    expect(on.body.approvalRequired).toBe(true);
  });

  it("holds a writer's scheduled post for review (status kept), approves it, and lists by approval state", async () => {
    const created = await create(writer, { scheduledAt: inAnHour() });
    expect(created.status).toBe(201);
    const id = created.body.post.id as string;
    expect(created.body.post).toMatchObject({ status: 'scheduled', approval: { state: 'pending', by: expect.any(String), note: null } });
    expect(created.body.note).toContain('Held for review');
    const pending = (await stack.request('GET', '/api/v1/posts?approval=pending&limit=50', { key: writer })).body.posts.map((p: { id: string }) => p.id);
    expect(pending).toContain(id);
    // A reviewer's own post is not held.
    const own = await create(reviewer, { scheduledAt: inAnHour() });
    expect(own.body.post.approval).toBeUndefined();
    expect((await stack.request('GET', '/api/v1/posts?approval=pending&limit=50', { key: writer })).body.posts.map((p: { id: string }) => p.id)).not.toContain(own.body.post.id);

    const approved = await stack.request('POST', `/api/v1/posts/${id}/approve`, { key: reviewer, body: { note: 'looks good' } });
    expect(approved.status).toBe(200);
    expect(approved.body.post).toMatchObject({ status: 'scheduled', approval: { state: 'approved', note: 'looks good' } });
    expect((await stack.request('GET', '/api/v1/posts?approval=approved&limit=50', { key: writer })).body.posts.map((p: { id: string }) => p.id)).toContain(id);
    expect((await stack.request('GET', '/api/v1/posts?approval=maybe', { key: writer })).body.error.code).toBe('invalid_query');
    await until(() => webhooksOf(id).some((r) => r.payload.type === 'post.approved'), 10_000);
    expect(webhooksOf(id).map((r) => r.payload.type)).toEqual(['post.approval_requested', 'post.approved']);
    expect(webhooksOf(id)[1].payload.data).toEqual({ postId: id, approval: { state: 'approved', by: expect.any(String), at: expect.any(String), note: 'looks good' } });

    // The writer edits it: back to review.
    const edited = await stack.request('PATCH', `/api/v1/posts/${id}`, { key: writer, body: { content: 'changed after approval' } });
    expect(edited.body.post.approval).toMatchObject({ state: 'pending' });
  });

  it('rejects with a note; approve and reject need the approve scope; a post never held is not reviewable; none of these refusals appends', async () => {
    const id = (await create(writer, {})).body.post.id as string;
    const events = await stack.eventCount();
    const byWriter = await stack.request('POST', `/api/v1/posts/${id}/approve`, { key: writer, body: {} });
    expect({ status: byWriter.status, code: byWriter.body.error.code }).toEqual({ status: 403, code: 'insufficient_scope' });
    expect((await stack.request('POST', `/api/v1/posts/${id}/reject`, { key: writer, body: { note: 'x' } })).status).toBe(403);
    const own = (await create(reviewer, {})).body.post.id as string;
    const afterOwn = await stack.eventCount();
    const notHeld = await stack.request('POST', `/api/v1/posts/${own}/approve`, { key: reviewer, body: {} });
    expect({ status: notHeld.status, code: notHeld.body.error.code }).toEqual({ status: 409, code: 'post_not_reviewable' });
    expect((await stack.request('POST', `/api/v1/posts/${id}/approve`, { key: reviewer, body: { verdict: 'yes' } })).body.error.code).toBe('unknown_field');
    expect(await stack.eventCount()).toBe(afterOwn);
    expect(afterOwn).toBeGreaterThan(events);

    const rejected = await stack.request('POST', `/api/v1/posts/${id}/reject`, { key: reviewer, body: { note: 'off brand' } });
    expect(rejected.status).toBe(200);
    expect(rejected.body.post).toMatchObject({ status: 'draft', approval: { state: 'rejected', note: 'off brand' } });
    expect((await get(id)).approval).toMatchObject({ state: 'rejected', note: 'off brand' });
    await until(() => webhooksOf(id).some((r) => r.payload.type === 'post.rejected'), 10_000);
  });

  it('refuses publishNow and publishing a held post to a key without approve (approval_required), appending nothing; a reviewer publishes', async () => {
    const events = await stack.eventCount();
    const now = await create(writer, { publishNow: true });
    expect({ status: now.status, code: now.body.error.code }).toEqual({ status: 403, code: 'approval_required' });
    expect(await stack.eventCount()).toBe(events);
    const id = (await create(writer, {})).body.post.id as string;
    const before = await stack.eventCount();
    const publish = await stack.request('POST', `/api/v1/posts/${id}/publish`, { key: writer });
    expect({ status: publish.status, code: publish.body.error.code }).toEqual({ status: 403, code: 'approval_required' });
    expect(await stack.eventCount()).toBe(before);
    const byReviewer = await stack.request('POST', `/api/v1/posts/${id}/publish`, { key: reviewer });
    expect(byReviewer.body.post.status).toBe('published');
  });

  it('a held scheduled post whose time comes while pending fails with approval_missed, is never published, and a webhook says so', async () => {
    const content = `missed ${Date.now()}`;
    const id = (await create(writer, { content, scheduledAt: new Date(Date.now() + 1_500).toISOString() })).body.post.id as string;
    expect((await get(id)).approval.state).toBe('pending');
    await until(async () => (await get(id)).status !== 'scheduled', 10_000);
    const post = await get(id);
    expect(post).toMatchObject({ status: 'failed', errorMessage: expect.stringContaining('awaiting approval'), approval: { state: 'pending' } });
    expect(stack.sandbox!.control.published({ platform: 'x' }).filter((item) => item.text === content)).toHaveLength(0);
    await until(() => webhooksOf(id).some((r) => r.payload.type === 'post.failed'), 10_000);
    expect(webhooksOf(id).find((r) => r.payload.type === 'post.failed')!.payload.data).toMatchObject({ postId: id, status: 'failed', errorCode: 'approval_missed' });
    // Too late to approve it now.
    expect((await stack.request('POST', `/api/v1/posts/${id}/approve`, { key: reviewer, body: {} })).body.error.code).toBe('post_not_reviewable');
  });

  it("holds a writer's bulk-imported rows as it holds single creates, and refuses their publishNow rows with approval_required", async () => {
    const answer = await stack.request('POST', '/api/v1/posts/bulk', {
      key: writer,
      body: { posts: [{ content: 'bulk held', accounts: ['x:@acme'], scheduledAt: new Date(Date.now() + 3_600_000).toISOString() }, { content: 'bulk now', accounts: ['x:@acme'], publishNow: true }] },
    });
    expect(answer.body).toMatchObject({ created: 1, refused: 1 });
    expect(answer.body.rows[1]).toMatchObject({ status: 'refused', error: { code: 'approval_required', column: 'publishNow' } });
    expect((await get(answer.body.rows[0].postId)).approval).toMatchObject({ state: 'pending' });
  });

  it('an approved scheduled post publishes at its time', async () => {
    const content = `approved ${Date.now()}`;
    const id = (await create(writer, { content, scheduledAt: new Date(Date.now() + 2_000).toISOString() })).body.post.id as string;
    expect((await stack.request('POST', `/api/v1/posts/${id}/approve`, { key: reviewer, body: {} })).status).toBe(200);
    await until(async () => (await get(id)).status === 'published', 15_000);
    expect(stack.sandbox!.control.published({ platform: 'x' }).filter((item) => item.text === content)).toHaveLength(1);
  });
});

import { connect } from 'nats';
import { Subjects } from '@app/contracts';
import { CommandClient } from '@app/messaging';
import { TestStack } from '../support/test-stack';
import { DuePostsScheduler } from '../../apps/publisher/src/schedule/due-posts.scheduler';

/** Editing and deleting (issue 4): allowed for drafts and scheduled posts before their time, 409 after. */
describe('PATCH and DELETE /api/v1/posts/:id', () => {
  let stack: TestStack;
  let key: string;
  const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

  beforeAll(async () => {
    stack = await TestStack.start({ sandbox: true, apps: ['projector', 'posts', 'gateway'], overrides: { publishWaitMs: 200 } });
    const ws = await stack.workspace(['read', 'write', 'publish']);
    key = ws.key;
    await stack.connect(ws.workspaceId, 'x', '@acme');
    await stack.connect(ws.workspaceId, 'facebook', '@acme_page');
  });
  afterAll(() => stack.stop());

  const create = async (body: Record<string, unknown>) => (await stack.request('POST', '/api/v1/posts', { key, body: { content: 'v1', accounts: ['x:@acme'], ...body } })).body.post.id as string;
  const get = (id: string) => stack.request('GET', `/api/v1/posts/${id}`, { key });
  const patch = (id: string, body: unknown, headers: Record<string, string> = {}) => stack.request('PATCH', `/api/v1/posts/${id}`, { key, body, headers });

  it('edits every field of a scheduled post, with the ETag moving on', async () => {
    const id = await create({ scheduledAt: inAnHour() });
    const before = await get(id);
    expect(before.headers.get('etag')).toBe('"1"');
    const scheduledAt = new Date(Date.now() + 7_200_000).toISOString();
    const edited = await patch(id, { content: 'v2', accounts: ['facebook:@acme_page'], mediaUrls: ['https://cdn.example.com/a.png'], firstComments: ['hi'], scheduledAt }, { 'if-match': '"1"' });
    expect(edited.status).toBe(200);
    expect(edited.body.post).toMatchObject({ id, status: 'scheduled', scheduledAt, platforms: ['facebook'] });
    const after = await get(id);
    expect(after.headers.get('etag')).toBe('"2"');
    expect(after.body.post).toMatchObject({ content: 'v2', mediaUrls: ['https://cdn.example.com/a.png'], firstComments: ['hi'], accounts: [{ account: '@acme_page' }] });
  });

  it('unschedules a scheduled post (scheduledAt: null makes it a draft)', async () => {
    const id = await create({ scheduledAt: inAnHour() });
    expect((await patch(id, { scheduledAt: null })).body.post).toMatchObject({ status: 'draft', scheduledAt: null });
  });

  it('refuses a stale If-Match with 412 and changes nothing', async () => {
    const id = await create({});
    await patch(id, { content: 'v2' });
    const events = await stack.eventCount();
    const stale = await patch(id, { content: 'v3' }, { 'if-match': '"1"' });
    expect(stale.status).toBe(412);
    expect(stale.body.error.code).toBe('precondition_failed');
    expect(await stack.eventCount()).toBe(events);
    expect((await get(id)).body.post.content).toBe('v2');
  });

  it.each([
    ['content over 10,000 characters', { content: 'a'.repeat(10_001) }, 'content_too_long'],
    ['a schedule in the past', { scheduledAt: '2001-01-01T00:00:00Z' }, 'scheduled_at_in_past'],
    ['an unknown account', { accounts: ['x:@ghost'] }, 'unknown_account'],
    ['nothing to change', {}, 'nothing_to_edit'],
  ])('applies the create rules to an edit: %s', async (_name, body, code) => {
    const id = await create({});
    const events = await stack.eventCount();
    const response = await patch(id, body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe(code);
    expect(await stack.eventCount()).toBe(events);
  });

  it('deletes a draft: 204, then 404 and gone from the list', async () => {
    const id = await create({});
    expect((await stack.request('DELETE', `/api/v1/posts/${id}`, { key })).status).toBe(204);
    expect((await get(id)).status).toBe(404);
    const list = (await stack.request('GET', '/api/v1/posts?limit=50', { key })).body.posts;
    expect(list.map((p: { id: string }) => p.id)).not.toContain(id);
    expect((await patch(id, { content: 'x' })).status).toBe(404);
  });

  it('refuses to edit or delete a post that is published, with 409 and nothing appended', async () => {
    const id = (await stack.request('POST', '/api/v1/posts', { key, body: { content: 'live', accounts: ['x:@acme'], publishNow: true } })).body.post.id;
    const events = await stack.eventCount();
    const edit = await patch(id, { content: 'changed' });
    expect(edit.status).toBe(409);
    expect(edit.body.error.code).toBe('post_not_editable');
    expect((await stack.request('DELETE', `/api/v1/posts/${id}`, { key })).status).toBe(409);
    expect(await stack.eventCount()).toBe(events);
  });
});

describe('scheduled posts fire on time, once, and expire when six hours late', () => {
  let stack: TestStack;
  let key: string;
  let offsetMs = 0;

  beforeAll(async () => {
    stack = await TestStack.start({
      sandbox: true,
      // A clock the test can move: the six-hour rule without waiting six hours.
      overrides: { schedulerIntervalMs: 100, now: () => new Date(Date.now() + offsetMs) },
    });
    const ws = await stack.workspace(['read', 'write', 'publish']);
    key = ws.key;
    await stack.connect(ws.workspaceId, 'x', '@acme');
  });
  afterAll(() => stack.stop());

  const schedule = async (inMs: number, content: string) =>
    (await stack.request('POST', '/api/v1/posts', { key, body: { content, accounts: ['x:@acme'], scheduledAt: new Date(Date.now() + offsetMs + inMs).toISOString() } })).body.post.id as string;
  const statusOf = async (id: string) => (await stack.request('GET', `/api/v1/posts/${id}`, { key })).body.post;
  async function until(id: string, done: (post: { status: string }) => boolean, timeoutMs = 10_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const post = await statusOf(id);
      if (done(post) || Date.now() > deadline) return post;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('publishes a scheduled post at its time, through the publish path', async () => {
    const id = await schedule(1_500, 'on time');
    expect((await statusOf(id)).status).toBe('scheduled');
    const post = await until(id, (p) => p.status === 'published');
    expect(post).toMatchObject({ status: 'published', results: [{ success: true, platform: 'x' }] });
    expect(new Date(post.publishedAt).getTime()).toBeGreaterThanOrEqual(new Date(post.scheduledAt).getTime());
    expect(stack.sandbox!.control.published({ platform: 'x', kind: 'post' }).filter((i) => i.text === 'on time')).toHaveLength(1);
  });

  it('a post overdue by more than six hours (the service was down) becomes failed and is not published', async () => {
    await stack.stopApp('publisher');
    const id = await schedule(1_000, 'too late');
    offsetMs = 6 * 3_600_000 + 60_000; // the service comes back six hours and a minute later
    await stack.startApp('publisher');
    const post = await until(id, (p) => p.status !== 'scheduled');
    offsetMs = 0;
    expect(post).toMatchObject({ status: 'failed', errorMessage: expect.stringContaining('six hours') });
    expect(stack.sandbox!.control.published({ platform: 'x' }).filter((i) => i.text === 'too late')).toHaveLength(0);
  });

  it('a post overdue by less than six hours is published on recovery', async () => {
    await stack.stopApp('publisher');
    const id = await schedule(1_000, 'a bit late');
    offsetMs = 5 * 3_600_000;
    await stack.startApp('publisher');
    const post = await until(id, (p) => p.status === 'published');
    offsetMs = 0;
    expect(post.status).toBe('published');
  });

  /** A scheduler replica of its own (own NATS connection), as a second publisher process would run. */
  async function replica(): Promise<{ scheduler: DuePostsScheduler; close: () => Promise<void> }> {
    const nc = await connect({ servers: stack.config.natsUrl });
    const scheduler = new DuePostsScheduler(stack.config, stack.db.pool, new CommandClient(nc, new Subjects(stack.config.natsNamespace), 5_000));
    return { scheduler, close: () => nc.close() };
  }

  it('two scheduler replicas firing the same due post publish it once', async () => {
    await stack.stopApp('publisher');
    const id = await schedule(300, 'raced');
    await new Promise((r) => setTimeout(r, 400));
    const [a, b] = [await replica(), await replica()];
    await Promise.all([a.scheduler.tick(), b.scheduler.tick(), a.scheduler.tick(), b.scheduler.tick()]);
    await Promise.all([a.close(), b.close()]);
    await stack.startApp('publisher');
    const post = await until(id, (p) => p.status === 'published');
    expect(post.status).toBe('published');
    const { rows } = await stack.db.pool.query(`SELECT count(*)::int AS n FROM events WHERE stream_id = $1 AND type = 'PublishRequested'`, [`post-${id}`]);
    expect(rows[0].n).toBe(1);
    expect(stack.sandbox!.control.published({ platform: 'x' }).filter((i) => i.text === 'raced')).toHaveLength(1);
  });

  it('a publication that outlives every bound (its publisher gone) is closed as failed by the scheduler', async () => {
    await stack.stopApp('publisher');
    const id = (await stack.request('POST', '/api/v1/posts', { key, body: { content: 'orphan', accounts: ['x:@acme'], publishNow: true } })).body.post.id;
    expect((await statusOf(id)).status).toBe('publishing');
    const { scheduler, close } = await replica();
    await scheduler.tick();
    expect((await statusOf(id)).status).toBe('publishing'); // not yet past the bound
    offsetMs = stack.config.publishAbandonAfterMs + 1_000;
    await scheduler.tick();
    offsetMs = 0;
    await close();
    const post = await until(id, (p) => p.status !== 'publishing');
    expect(post).toMatchObject({ status: 'failed', results: [{ success: false, error: { code: 'publish_abandoned', retryable: true } }] });
    await stack.startApp('publisher');
  });

  it('an edit racing the firing: one of them decides first and the other sees it (no edit after firing)', async () => {
    await stack.stopApp('publisher');
    const { scheduler, close } = await replica();
    for (let i = 0; i < 6; i++) {
      const id = await schedule(250, `race ${i}`);
      await new Promise((r) => setTimeout(r, 240 + (i % 3) * 5));
      const [edit] = await Promise.all([stack.request('PATCH', `/api/v1/posts/${id}`, { key, body: { content: `edited ${i}` } }), (async () => {
        // Tick like a running scheduler until the post is due and fired.
        for (let t = 0; t < 40; t++) {
          await scheduler.tick();
          await new Promise((r) => setTimeout(r, 10));
        }
      })()]);
      const { rows } = await stack.db.pool.query<{ type: string }>('SELECT type FROM events WHERE stream_id = $1 ORDER BY stream_position', [`post-${id}`]);
      const types = rows.map((r) => r.type);
      expect(types.filter((t) => t === 'PublishRequested')).toHaveLength(1);
      expect(types.filter((t) => t === 'PostEdited')).toHaveLength(edit.status === 200 ? 1 : 0);
      if (edit.status !== 200) expect(edit.body.error.code).toBe('post_not_editable');
      // An edit can only land before the firing: never after PublishRequested.
      if (edit.status === 200) expect(types.indexOf('PostEdited')).toBeLessThan(types.indexOf('PublishRequested'));
    }
    await close();
    await stack.startApp('publisher');
  });
});

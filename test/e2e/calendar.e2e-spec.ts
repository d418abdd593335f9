import { TestStack } from '../support/test-stack';

/**
 * Calendar (issue 23): GET /api/v1/posts?from=&to= by scheduled or published time with its cursor
 * bound to the range, and GET /api/v1/calendar answering the days of a range in a time zone with
 * their posts and the queues' free slots.
 */
describe('calendar and the posts list by time', () => {
  let stack: TestStack;
  let key: string;
  let accountId: string;
  const clock = new Date('2030-06-03T06:00:00Z'); // a Monday

  beforeAll(async () => {
    stack = await TestStack.start({ sandbox: true, overrides: { now: () => clock } });
    const ws = await stack.workspace(['read', 'write', 'publish']);
    key = ws.key;
    accountId = (await stack.connect(ws.workspaceId, 'x', '@cal')).id;
  });
  afterAll(() => stack.stop());

  const create = async (body: Record<string, unknown>) => {
    const answer = await stack.request('POST', '/api/v1/posts', { key, body: { accounts: ['x:@cal'], ...body } });
    expect(answer.status).toBe(201);
    return answer.body.post as { id: string; scheduledAt: string | null };
  };
  const get = (path: string, query: Record<string, string>) => stack.request('GET', `${path}?${new URLSearchParams(query)}`, { key });

  it('lists the posts scheduled in [from, to), a page at a time, the cursor bound to the range', async () => {
    const inJune = [];
    for (const day of ['05', '06', '07']) inJune.push(await create({ content: `june ${day}`, scheduledAt: `2030-06-${day}T10:00:00Z` }));
    await create({ content: 'july', scheduledAt: '2030-07-01T10:00:00Z' });
    await create({ content: 'a draft' });
    const range = { from: '2030-06-01T00:00:00Z', to: '2030-07-01T00:00:00Z' };
    const first = await get('/api/v1/posts', { ...range, limit: '2' });
    expect(first.status).toBe(200);
    const second = await get('/api/v1/posts', { ...range, limit: '2', cursor: first.body.nextCursor });
    expect(second.body.nextCursor).toBeNull();
    const ids = [...first.body.posts, ...second.body.posts].map((post: { id: string }) => post.id);
    expect(ids.sort()).toEqual(inJune.map((post) => post.id).sort());
    // The cursor continues only the range it was issued for.
    const moved = await get('/api/v1/posts', { from: '2030-06-02T00:00:00Z', to: range.to, limit: '2', cursor: first.body.nextCursor });
    expect(moved.status).toBe(400);
    expect(moved.body.error.code).toBe('invalid_query');
  });

  it.each([
    ['a bare date', { from: '2030-06-01' }],
    ['a time without a zone', { from: '2030-06-01T00:00:00' }],
    ['from after to', { from: '2030-07-01T00:00:00Z', to: '2030-06-01T00:00:00Z' }],
  ])('refuses %s with invalid_query', async (_name, query) => {
    const answer = await get('/api/v1/posts', query);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('invalid_query');
  });

  it('answers each day of the range in tz with its posts and the free queue slots', async () => {
    await stack.request('PUT', `/api/v1/accounts/${accountId}/schedule`, { key, body: { timezone: 'Europe/Berlin', slots: [{ day: 'mon', time: '23:30' }, { day: 'tue', time: '09:00' }] } });
    const queued = await create({ content: 'queued', queue: true });
    // Monday 23:30 in Berlin (CEST) is 21:30 UTC on Monday 3 June.
    expect(queued.scheduledAt).toBe('2030-06-03T21:30:00.000Z');
    const answer = await get('/api/v1/calendar', { from: '2030-06-03', to: '2030-06-05', tz: 'Europe/Berlin' });
    expect(answer.status).toBe(200);
    expect(answer.body.tz).toBe('Europe/Berlin');
    expect(answer.body.truncated).toBe(false);
    const days = answer.body.days as Array<{ date: string; posts: Array<{ id: string; content: string }>; freeSlots: Array<{ accountId: string; slotAt: string }> }>;
    expect(days.map((day) => day.date)).toEqual(['2030-06-03', '2030-06-04', '2030-06-05']);
    expect(days[0].posts).toEqual([{ id: queued.id, status: 'scheduled', scheduledAt: '2030-06-03T21:30:00.000Z', publishedAt: null, content: 'queued', accounts: [{ accountId, platform: 'x', account: '@cal' }] }]);
    expect(days[0].freeSlots).toEqual([]);
    expect(days[1].freeSlots).toEqual([{ accountId, slotAt: '2030-06-04T07:00:00.000Z' }]);
    expect(days[2].posts.map((post) => post.content)).toEqual(['june 05']);
    // In UTC the queued post (21:30 UTC) is still on 3 June, and the June 5 post on the 5th.
    const utc = await get('/api/v1/calendar', { from: '2030-06-03', to: '2030-06-05' });
    expect(utc.body.tz).toBe('UTC');
    expect(utc.body.days[0].posts.map((post: { id: string }) => post.id)).toEqual([queued.id]);
  });

  it('puts a published post on the day of its publication, in the calendar and in the list by time', async () => {
    const published = await stack.request('POST', '/api/v1/posts', { key, body: { content: 'live now', accounts: ['x:@cal'], publishNow: true } });
    expect(published.status).toBe(201);
    expect(published.body.post.status).toBe('published');
    const id = published.body.post.id as string;
    const day = (await get('/api/v1/calendar', { from: '2030-06-03', to: '2030-06-03' })).body.days[0];
    expect(day.posts).toContainEqual(expect.objectContaining({ id, status: 'published', scheduledAt: null, publishedAt: expect.stringMatching(/^2030-06-03T06:00:00/) }));
    const listed = await get('/api/v1/posts', { from: '2030-06-03T00:00:00Z', to: '2030-06-04T00:00:00Z' });
    expect(listed.body.posts.map((post: { id: string }) => post.id)).toContain(id);
    const before = await get('/api/v1/posts', { to: '2030-06-03T00:00:00Z' });
    expect(before.body.posts.map((post: { id: string }) => post.id)).not.toContain(id);
  });

  it.each([
    ['a range over 62 days', { from: '2030-06-01', to: '2030-08-02' }, 'range_too_long'],
    ['an unknown zone', { from: '2030-06-01', to: '2030-06-02', tz: 'Moon/Base' }, 'invalid_time_zone'],
    ['to before from', { from: '2030-06-02', to: '2030-06-01' }, 'invalid_query'],
    ['a date that does not exist', { from: '2030-02-30', to: '2030-03-01' }, 'invalid_query'],
    ['a missing to', { from: '2030-06-01' }, 'invalid_query'],
  ])('refuses %s', async (_name, query, code) => {
    const answer = await get('/api/v1/calendar', query);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe(code);
  });

  it('takes 62 days exactly', async () => {
    const answer = await get('/api/v1/calendar', { from: '2030-06-01', to: '2030-08-01' });
    expect(answer.status).toBe(200);
    expect(answer.body.days).toHaveLength(62);
  });
});

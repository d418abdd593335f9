import { TestStack } from '../support/test-stack';

/**
 * Posting queues (issue 23, Queues): an account's weekly schedule in its time zone, posts created
 * with queue: true placed at the first slot free on every targeted account, the queue listed with
 * its free and held slots, slots freed by deleting or rescheduling, daylight-saving nights, and
 * concurrent requests that never share a slot. The clock is the test's: slots are predictable.
 */
describe('posting queue', () => {
  let stack: TestStack;
  let key: string;
  let workspaceId: string;
  let clock = new Date('2030-06-03T06:00:00Z'); // a Monday
  const accountIds: Record<string, string> = {};

  beforeAll(async () => {
    stack = await TestStack.start({ apps: ['projector', 'posts', 'gateway'], overrides: { now: () => clock, publishWaitMs: 200 } });
    ({ key, workspaceId } = await stack.workspace(['read', 'write', 'publish']));
    for (const handle of ['@berlin', '@newyork', '@utc', '@noqueue', '@busy', '@pair', '@early']) accountIds[handle] = (await stack.connect(workspaceId, 'x', handle)).id;
  });
  afterAll(() => stack.stop());

  const setSchedule = (handle: string, body: unknown, withKey = key) => stack.request('PUT', `/api/v1/accounts/${accountIds[handle]}/schedule`, { key: withKey, body });
  const queuePost = (accounts: string[], extra: Record<string, unknown> = {}) => stack.request('POST', '/api/v1/posts', { key, body: { content: `queued ${Math.random()}`, accounts, queue: true, ...extra } });
  const queueOf = (handle: string, limit = 5) => stack.request('GET', `/api/v1/queue?accountId=${accountIds[handle]}&limit=${limit}`, { key });

  describe('schedule', () => {
    it('is set with PUT and read back with GET: days read as mon..sun, each slot once, in week order', async () => {
      const put = await setSchedule('@utc', { timezone: 'UTC', slots: [{ day: 'Wednesday', time: '12:00' }, { day: 'mon', time: '09:00' }, { day: 'monday', time: '09:00' }] });
      expect(put.status).toBe(200);
      const expected = { accountId: accountIds['@utc'], timezone: 'UTC', slots: [{ day: 'mon', time: '09:00' }, { day: 'wed', time: '12:00' }] };
      expect(put.body.schedule).toMatchObject(expected);
      const get = await stack.request('GET', `/api/v1/accounts/${accountIds['@utc']}/schedule`, { key });
      expect(get.status).toBe(200);
      expect(get.body.schedule).toMatchObject(expected);
    });

    it.each([
      ['an unknown time zone', { timezone: 'Europe/Atlantis', slots: [] }, 400, 'invalid_time_zone'],
      ['a fixed offset', { timezone: 'UTC+2', slots: [] }, 400, 'invalid_time_zone'],
      ['a day that is none', { timezone: 'UTC', slots: [{ day: 'someday', time: '09:00' }] }, 400, 'invalid_schedule_slot'],
      ['a time off the clock', { timezone: 'UTC', slots: [{ day: 'mon', time: '25:00' }] }, 400, 'invalid_schedule_slot'],
      ['a field it does not take', { timezone: 'UTC', slots: [], tz: 'UTC' }, 400, 'unknown_field'],
      ['slots that are not objects', { timezone: 'UTC', slots: ['mon 09:00'] }, 400, 'invalid_body'],
    ])('refuses %s and appends nothing', async (_name, body, status, code) => {
      const events = await stack.eventCount();
      const answer = await setSchedule('@busy', body);
      expect(answer.status).toBe(status);
      expect(answer.body.error.code).toBe(code);
      expect(await stack.eventCount()).toBe(events);
    });

    it("is not found for another workspace's account, and needs the write scope to set", async () => {
      const other = await stack.workspace(['read', 'write']);
      const events = await stack.eventCount();
      expect((await setSchedule('@utc', { timezone: 'UTC', slots: [] }, other.key)).status).toBe(404);
      expect((await stack.request('GET', `/api/v1/accounts/${accountIds['@utc']}/schedule`, { key: other.key })).status).toBe(404);
      expect((await stack.request('GET', `/api/v1/queue?accountId=${accountIds['@utc']}`, { key: other.key })).status).toBe(404);
      const readOnly = await stack.workspaces.createKey(workspaceId, ['read']);
      const refused = await setSchedule('@utc', { timezone: 'UTC', slots: [] }, readOnly.key);
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('insufficient_scope');
      expect(await stack.eventCount()).toBe(events);
    });
  });

  describe('queue: true', () => {
    it('takes the first free slot, then the next; the queue lists them held and the rest free', async () => {
      clock = new Date('2030-06-03T06:00:00Z');
      await setSchedule('@pair', { timezone: 'UTC', slots: [{ day: 'mon', time: '09:00' }, { day: 'mon', time: '17:00' }] });
      const first = await queuePost(['x:@pair']);
      expect(first.status).toBe(201);
      expect(first.body.post).toMatchObject({ status: 'scheduled', scheduledAt: '2030-06-03T09:00:00.000Z' });
      const second = await queuePost(['x:@pair']);
      expect(second.body.post.scheduledAt).toBe('2030-06-03T17:00:00.000Z');
      const queue = await queueOf('@pair', 3);
      expect(queue.status).toBe(200);
      expect(queue.body).toMatchObject({ accountId: accountIds['@pair'], timezone: 'UTC' });
      expect(queue.body.slots).toEqual([
        { slotAt: '2030-06-03T09:00:00.000Z', localTime: '2030-06-03T09:00:00.000Z', post: { id: first.body.post.id, status: 'scheduled', content: expect.any(String) } },
        { slotAt: '2030-06-03T17:00:00.000Z', localTime: '2030-06-03T17:00:00.000Z', post: { id: second.body.post.id, status: 'scheduled', content: expect.any(String) } },
        { slotAt: '2030-06-10T09:00:00.000Z', localTime: '2030-06-10T09:00:00.000Z', post: null },
      ]);
    });

    it('frees the slot of a deleted post and of one rescheduled by hand', async () => {
      clock = new Date('2030-06-03T06:00:00Z');
      await setSchedule('@busy', { timezone: 'UTC', slots: [{ day: 'tue', time: '10:00' }] });
      const a = (await queuePost(['x:@busy'])).body.post;
      const b = (await queuePost(['x:@busy'])).body.post;
      expect([a.scheduledAt, b.scheduledAt]).toEqual(['2030-06-04T10:00:00.000Z', '2030-06-11T10:00:00.000Z']);
      expect((await stack.request('DELETE', `/api/v1/posts/${a.id}`, { key })).status).toBe(204);
      expect((await queueOf('@busy', 1)).body.slots[0]).toMatchObject({ slotAt: '2030-06-04T10:00:00.000Z', post: null });
      const c = (await queuePost(['x:@busy'])).body.post;
      expect(c.scheduledAt).toBe('2030-06-04T10:00:00.000Z');
      // Rescheduling by hand takes the post out of the queue: its slot is free again.
      const edited = await stack.request('PATCH', `/api/v1/posts/${b.id}`, { key, body: { scheduledAt: '2030-07-01T08:00:00Z' } });
      expect(edited.status).toBe(200);
      const slots = (await queueOf('@busy', 2)).body.slots;
      expect(slots).toEqual([expect.objectContaining({ slotAt: '2030-06-04T10:00:00.000Z', post: expect.objectContaining({ id: c.id }) }), expect.objectContaining({ slotAt: '2030-06-11T10:00:00.000Z', post: null })]);
      // Unscheduling (a draft again) frees it too.
      expect((await stack.request('PATCH', `/api/v1/posts/${c.id}`, { key, body: { scheduledAt: null } })).body.post.status).toBe('draft');
      expect((await queueOf('@busy', 1)).body.slots[0]).toMatchObject({ slotAt: '2030-06-04T10:00:00.000Z', post: null });
    });

    it('frees the slot of a queued post published ahead of it, and a retry with the same Idempotency-Key claims nothing more', async () => {
      clock = new Date('2030-06-03T06:00:00Z');
      await setSchedule('@early', { timezone: 'UTC', slots: [{ day: 'thu', time: '10:00' }] });
      const body = { content: 'once', accounts: ['x:@early'], queue: true };
      const first = await stack.request('POST', '/api/v1/posts', { key, body, headers: { 'idempotency-key': 'queue-once' } });
      expect(first.body.post.scheduledAt).toBe('2030-06-06T10:00:00.000Z');
      const events = await stack.eventCount();
      const again = await stack.request('POST', '/api/v1/posts', { key, body, headers: { 'idempotency-key': 'queue-once' } });
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body.post).toMatchObject({ id: first.body.post.id, scheduledAt: '2030-06-06T10:00:00.000Z' });
      expect(await stack.eventCount()).toBe(events);
      // Published now (no publisher runs here: it stays publishing), the slot is free for the next post.
      const published = await stack.request('POST', `/api/v1/posts/${first.body.post.id}/publish`, { key });
      expect([201, 202]).toContain(published.status);
      expect((await queueOf('@early', 1)).body.slots[0]).toMatchObject({ slotAt: '2030-06-06T10:00:00.000Z', post: null });
      expect((await queuePost(['x:@early'])).body.post.scheduledAt).toBe('2030-06-06T10:00:00.000Z');
    });

    it('finds the first instant free on every account, across time zones', async () => {
      clock = new Date('2030-06-03T06:00:00Z');
      await setSchedule('@berlin', { timezone: 'Europe/Berlin', slots: [{ day: 'mon', time: '09:00' }, { day: 'wed', time: '14:00' }, { day: 'sun', time: '02:30' }] });
      // 12:00 UTC on Wednesday is 14:00 in Berlin (CEST, +02:00) in June: the one instant both have.
      const post = await queuePost(['x:@berlin', 'x:@utc']);
      expect(post.status).toBe(201);
      expect(post.body.post.scheduledAt).toBe('2030-06-05T12:00:00.000Z');
      expect((await queueOf('@berlin', 2)).body.slots[1]).toMatchObject({ slotAt: '2030-06-05T12:00:00.000Z', localTime: '2030-06-05T14:00:00.000+02:00', post: { id: post.body.post.id } });
      expect((await queueOf('@utc', 2)).body.slots[1]).toMatchObject({ slotAt: '2030-06-05T12:00:00.000Z', post: { id: post.body.post.id } });
    });

    it.each([
      ['with scheduledAt', { scheduledAt: '2030-07-01T09:00:00Z' }, 'queue_and_scheduled_at'],
      ['with publishNow', { publishNow: true }, 'queue_and_publish_now'],
    ])('is refused %s, as scheduledAt with publishNow is, and appends nothing', async (_name, extra, code) => {
      const events = await stack.eventCount();
      const answer = await queuePost(['x:@utc'], extra);
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe(code);
      expect(await stack.eventCount()).toBe(events);
    });

    it('is refused for an account without a schedule, naming it, and appends nothing', async () => {
      const events = await stack.eventCount();
      const answer = await queuePost(['x:@utc', 'x:@noqueue']);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'queue_schedule_missing', details: { accountIds: [accountIds['@noqueue']] } });
      expect(await stack.eventCount()).toBe(events);
    });

    it('is refused when the post breaks a create rule, before any slot is claimed', async () => {
      const events = await stack.eventCount();
      const answer = await queuePost(['x:@utc'], { content: 'a'.repeat(10_001) });
      expect(answer.body.error.code).toBe('content_too_long');
      expect(await stack.eventCount()).toBe(events);
    });

    it('is refused with queue_full when no slot is free within 90 days, and appends nothing', async () => {
      clock = new Date('2030-06-03T06:00:00Z');
      await setSchedule('@noqueue', { timezone: 'UTC', slots: [{ day: 'fri', time: '08:00' }] });
      // Fridays from 7 June to 30 August 2030: the 13 slots within 90 days.
      for (let i = 0; i < 13; i++) expect((await queuePost(['x:@noqueue'])).status).toBe(201);
      const events = await stack.eventCount();
      const answer = await queuePost(['x:@noqueue']);
      expect(answer.status).toBe(409);
      expect(answer.body.error).toMatchObject({ code: 'queue_full', details: { horizonDays: 90 } });
      expect(await stack.eventCount()).toBe(events);
    });
  });

  describe('across daylight saving', () => {
    it('Europe/Berlin: 02:30 on the spring-forward night goes out at 03:30 CEST; on the fall-back night at the first 02:30', async () => {
      await setSchedule('@newyork', { timezone: 'America/New_York', slots: [{ day: 'sun', time: '02:30' }, { day: 'sun', time: '01:30' }] });
      // 31 March 2030: Berlin goes from 02:00 CET to 03:00 CEST.
      clock = new Date('2030-03-30T12:00:00Z');
      const spring = await queuePost(['x:@berlin']);
      expect(spring.body.post.scheduledAt).toBe('2030-03-31T01:30:00.000Z');
      // 27 October 2030: 02:00–03:00 happens twice in Berlin; the first (CEST, +02:00) is taken.
      clock = new Date('2030-10-26T12:00:00Z');
      const autumn = await queuePost(['x:@berlin']);
      expect(autumn.body.post.scheduledAt).toBe('2030-10-27T00:30:00.000Z');
      expect((await queueOf('@berlin', 1)).body.slots[0]).toMatchObject({ slotAt: '2030-10-27T00:30:00.000Z', localTime: '2030-10-27T02:30:00.000+02:00' });
    });

    it('America/New_York: 02:30 on 10 March 2030 goes out at 03:30 EDT; 01:30 on 3 November 2030 at the first one (EDT)', async () => {
      clock = new Date('2030-03-09T12:00:00Z');
      const [springEarly, springLate] = [await queuePost(['x:@newyork']), await queuePost(['x:@newyork'])];
      // 01:30 EST exists (06:30 UTC); 02:30 does not and moves to 03:30 EDT (07:30 UTC).
      expect([springEarly.body.post.scheduledAt, springLate.body.post.scheduledAt]).toEqual(['2030-03-10T06:30:00.000Z', '2030-03-10T07:30:00.000Z']);
      clock = new Date('2030-11-02T12:00:00Z');
      const [autumnEarly, autumnLate] = [await queuePost(['x:@newyork']), await queuePost(['x:@newyork'])];
      // 01:30 happens twice: the first is 01:30 EDT (05:30 UTC); 02:30 EST is 07:30 UTC.
      expect([autumnEarly.body.post.scheduledAt, autumnLate.body.post.scheduledAt]).toEqual(['2030-11-03T05:30:00.000Z', '2030-11-03T07:30:00.000Z']);
    });
  });

  it('ten concurrent queue requests for one account take ten distinct slots, the first ten in order', async () => {
    clock = new Date('2030-06-03T06:00:00Z');
    const { id } = await stack.connect(workspaceId, 'x', '@rush');
    accountIds['@rush'] = id;
    const hours = ['08:00', '09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00', '17:00'];
    await setSchedule('@rush', { timezone: 'UTC', slots: hours.map((time) => ({ day: 'tue', time })) });
    const answers = await Promise.all(Array.from({ length: 10 }, () => queuePost(['x:@rush'])));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    const times = answers.map((a) => a.body.post.scheduledAt as string).sort();
    expect(times).toEqual(hours.map((time) => `2030-06-04T${time}:00.000Z`));
    const queue = (await queueOf('@rush', 10)).body.slots as Array<{ post: { id: string } | null }>;
    expect(new Set(queue.map((slot) => slot.post?.id))).toEqual(new Set(answers.map((a) => a.body.post.id)));
  });
});

import { TestStack } from '../support/test-stack';

/**
 * A scheduled post fires at its time, not up to a scheduler pass later: each pass wakes the
 * scheduler again when the next post falls due before the next pass (DuePostsScheduler). The passes
 * here are five seconds apart, so only that wake can fire both posts within a fraction of a second
 * of their times, 700 ms apart.
 */
describe('scheduled posts fire at their time, between the scheduler passes', () => {
  let stack: TestStack;
  let key: string;

  beforeAll(async () => {
    stack = await TestStack.start({ sandbox: true, overrides: { schedulerIntervalMs: 5_000 } });
    const ws = await stack.workspace(['read', 'write']);
    key = ws.key;
    await stack.connect(ws.workspaceId, 'x', '@acme');
  });
  afterAll(() => stack.stop());

  it('fires each post within half a second of its time', async () => {
    const first = Date.now() + 7_000;
    const ids: string[] = [];
    for (const at of [first, first + 700]) {
      const response = await stack.request('POST', '/api/v1/posts', { key, body: { content: `on the dot ${at}`, accounts: ['x:@acme'], scheduledAt: new Date(at).toISOString() } });
      expect(response.status).toBe(201);
      ids.push(response.body.post.id);
    }
    const fired = async () =>
      (
        await stack.db.pool.query<{ late_ms: number }>(
          `SELECT extract(epoch FROM e.created_at - v.scheduled_at) * 1000 AS late_ms FROM events e JOIN post_views v ON e.stream_id = 'post-' || v.id
            WHERE v.id = ANY($1::uuid[]) AND e.type = 'PublishRequested' ORDER BY v.scheduled_at`,
          [ids],
        )
      ).rows.map((r) => Number(r.late_ms));
    const deadline = first + 700 + 6_000;
    while ((await fired()).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const late = await fired();
    expect(late).toHaveLength(2);
    for (const ms of late) {
      expect(ms).toBeGreaterThanOrEqual(0);
      expect(ms).toBeLessThan(500);
    }
  });
});

import { TestStack } from '../support/test-stack';

describe('Idempotency-Key on POST /api/v1/posts', () => {
  let stack: TestStack;
  let key: string;
  let otherKey: string;
  const body = { content: 'only once', accounts: ['x:@acme'] };

  beforeAll(async () => {
    stack = await TestStack.start();
    const mine = await stack.workspace(['read', 'write']);
    key = mine.key;
    await stack.connect(mine.workspaceId, 'x', '@acme');
    const other = await stack.workspace(['read', 'write']);
    otherKey = other.key;
    await stack.connect(other.workspaceId, 'x', '@acme');
  });
  afterAll(() => stack.stop());

  const create = (k: string, idempotencyKey: string, b: unknown = body) => stack.request('POST', '/api/v1/posts', { key: k, body: b, headers: { 'idempotency-key': idempotencyKey } });

  it('answers a retry with the first answer and appends nothing', async () => {
    const first = await create(key, 'retry-1');
    const events = await stack.eventCount();
    const second = await create(key, 'retry-1', { accounts: ['x:@acme'], content: 'only once' }); // same body, keys reordered
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await stack.eventCount()).toBe(events);
  });

  it('refuses the same key with a different body and appends nothing', async () => {
    await create(key, 'retry-2');
    const events = await stack.eventCount();
    const response = await create(key, 'retry-2', { ...body, content: 'something else' });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('idempotency_key_reused');
    expect(await stack.eventCount()).toBe(events);
  });

  it('creates one post when the same request races itself', async () => {
    const responses = await Promise.all(Array.from({ length: 8 }, () => create(key, 'race-1')));
    expect(responses.every((r) => r.status === 201)).toBe(true);
    expect(new Set(responses.map((r) => r.body.post.id)).size).toBe(1);
    const { rows } = await stack.db.pool.query('SELECT count(*)::int AS n FROM events WHERE stream_id = $1', [`post-${responses[0].body.post.id}`]);
    expect(rows[0].n).toBe(1);
  });

  it('keeps keys apart between workspaces', async () => {
    const mine = await create(key, 'shared-key');
    const theirs = await create(otherKey, 'shared-key');
    expect(theirs.status).toBe(201);
    expect(theirs.body.post.id).not.toBe(mine.body.post.id);
  });

  it('refuses an over-long key', async () => {
    const response = await create(key, 'k'.repeat(256));
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_idempotency_key');
  });
});

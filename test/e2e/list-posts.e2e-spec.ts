import { TestStack, tokenOf } from '../support/test-stack';

describe('GET /api/v1/posts and GET /api/v1/posts/:id', () => {
  let stack: TestStack;
  let key: string;
  let otherKey: string;
  const ids: string[] = [];

  beforeAll(async () => {
    stack = await TestStack.start();
    const mine = await stack.workspace(['read', 'write']);
    key = mine.key;
    await stack.connect(mine.workspaceId, 'x', '@acme');
    const other = await stack.workspace(['read', 'write']);
    otherKey = other.key;
    await stack.connect(other.workspaceId, 'x', '@rival');
    // 25 drafts, then 3 scheduled, one with a long body: newest is the last created.
    for (let i = 0; i < 25; i++) ids.push((await stack.request('POST', '/api/v1/posts', { key, body: { content: `draft ${i}`, accounts: ['x:@acme'] } })).body.post.id);
    const later = new Date(Date.now() + 86_400_000).toISOString();
    for (let i = 0; i < 3; i++) {
      const content = i === 2 ? 'é'.repeat(600) : `scheduled ${i}`;
      ids.push((await stack.request('POST', '/api/v1/posts', { key, body: { content, accounts: ['x:@acme'], scheduledAt: later } })).body.post.id);
    }
    await stack.request('POST', '/api/v1/posts', { key: otherKey, body: { content: 'not yours', accounts: ['x:@rival'] } });
  });
  afterAll(() => stack.stop());

  it('returns 20 posts by default, newest first, only this workspace', async () => {
    const { status, body } = await stack.request('GET', '/api/v1/posts', { key });
    expect(status).toBe(200);
    expect(body.posts.map((p: { id: string }) => p.id)).toEqual([...ids].reverse().slice(0, 20));
  });

  it('clamps the limit to 50 and honours smaller ones', async () => {
    expect((await stack.request('GET', '/api/v1/posts?limit=100', { key })).body.posts).toHaveLength(28);
    expect((await stack.request('GET', '/api/v1/posts?limit=5', { key })).body.posts).toHaveLength(5);
  });

  it('clamps a limit over 50 to 50 when more posts exist', async () => {
    const crowded = await stack.workspace(['read', 'write']);
    await stack.connect(crowded.workspaceId, 'x', '@crowd');
    for (let i = 0; i < 51; i++) await stack.request('POST', '/api/v1/posts', { key: crowded.key, body: { content: `crowd ${i}`, accounts: ['x:@crowd'] } });
    expect((await stack.request('GET', '/api/v1/posts?limit=100', { key: crowded.key })).body.posts).toHaveLength(50);
    expect((await stack.request('GET', '/api/v1/posts?limit=50', { key: crowded.key })).body.posts).toHaveLength(50);
  });

  it.each(['draft', 'scheduled', 'publishing', 'published', 'partial', 'failed'])('accepts status=%s and returns only posts in that state', async (status) => {
    const response = await stack.request('GET', `/api/v1/posts?status=${status}`, { key });
    expect(response.status).toBe(200);
    expect(response.body.posts.map((p: { status: string }) => p.status)).toEqual(response.body.posts.map(() => status));
  });

  it('filters by status', async () => {
    const scheduled = (await stack.request('GET', '/api/v1/posts?status=scheduled', { key })).body.posts;
    expect(scheduled).toHaveLength(3);
    expect(scheduled.every((p: { status: string; scheduledAt: string }) => p.status === 'scheduled' && p.scheduledAt)).toBe(true);
    expect((await stack.request('GET', '/api/v1/posts?status=published', { key })).body.posts).toEqual([]);
  });

  it('shortens bodies over 500 characters with an ellipsis in the list, and GET by id returns the whole body', async () => {
    const [newest] = (await stack.request('GET', '/api/v1/posts?limit=1', { key })).body.posts;
    expect(newest.content).toBe(`${'é'.repeat(500)}…`);
    const full = (await stack.request('GET', `/api/v1/posts/${newest.id}`, { key })).body.post;
    expect(full.content).toBe('é'.repeat(600));
    expect(full).toMatchObject({ status: 'scheduled', mediaUrls: [], firstComments: [], accounts: [{ platform: 'x', account: '@acme' }] });
  });

  it.each([['status=archived'], ['limit=abc'], ['limit=0'], ['limit=-3'], ['limit=2.5']])('refuses %s with invalid_query', async (query) => {
    const response = await stack.request('GET', `/api/v1/posts?${query}`, { key });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_query');
  });

  it('answers 404 for a post of another workspace, an unknown id, or a malformed id', async () => {
    const theirs = (await stack.request('GET', '/api/v1/posts', { key: otherKey })).body.posts[0].id;
    for (const id of [theirs, '00000000-0000-7000-8000-000000000000', 'not-a-uuid']) {
      const response = await stack.request('GET', `/api/v1/posts/${id}`, { key });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
  });

  it('lists the accounts of this workspace only, without credentials', async () => {
    const { body } = await stack.request('GET', '/api/v1/accounts', { key });
    expect(body.accounts).toEqual([
      {
        id: expect.any(String), platform: 'x', account: '@acme', displayName: '@acme', status: 'connected', statusReason: null, statusSince: expect.any(String),
        platformAccountId: 'test-acme', instanceUrl: null, tokenExpiresAt: null, scopes: [], createdAt: expect.any(String),
      },
    ]);
    expect(JSON.stringify(body)).not.toContain(tokenOf('@acme'));
  });
});

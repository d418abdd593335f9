import { TestStack } from '../support/test-stack';

describe('POST /api/v1/posts (draft and scheduled)', () => {
  let stack: TestStack;
  let key: string;
  let workspaceId: string;
  const future = () => new Date(Date.now() + 3_600_000).toISOString();

  beforeAll(async () => {
    stack = await TestStack.start();
    ({ key, workspaceId } = await stack.workspace());
    await stack.connect(workspaceId, 'x', '@acme');
    await stack.connect(workspaceId, 'facebook', '@acme');
    await stack.connect(workspaceId, 'instagram', '@shop');
    await stack.connect(workspaceId, 'x', '@news');
    const old = await stack.connect(workspaceId, 'linkedin', '@old');
    await stack.disconnect(workspaceId, old.id);
    for (let i = 0; i < 11; i++) await stack.connect(workspaceId, 'bluesky', `@crowd${i}`);
  });

  const crowd = (n: number) => Array.from({ length: n }, (_, i) => `bluesky:@crowd${i}`);
  afterAll(() => stack.stop());

  it('creates a draft, answers the spec shape, and the list already shows it', async () => {
    const created = await stack.request('POST', '/api/v1/posts', { key, body: { content: 'Hello world', accounts: ['x:@acme', '@shop'] } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      post: { id: expect.any(String), status: 'draft', scheduledAt: null, platforms: ['x', 'instagram'] },
      accounts: [
        { accountId: expect.any(String), platform: 'x', account: '@acme' },
        { accountId: expect.any(String), platform: 'instagram', account: '@shop' },
      ],
      results: [],
      note: expect.stringContaining('draft'),
    });
    const list = await stack.request('GET', '/api/v1/posts', { key });
    expect(list.body.posts[0]).toEqual({
      id: created.body.post.id,
      content: 'Hello world',
      platforms: ['x', 'instagram'],
      status: 'draft',
      scheduledAt: null,
      publishedAt: null,
      results: [],
      errorMessage: null,
      createdAt: expect.any(String),
      // Analytics: nothing collected for a draft.
      metrics: null,
    });
  });

  it('creates a scheduled post', async () => {
    const scheduledAt = future();
    const created = await stack.request('POST', '/api/v1/posts', { key, body: { content: 'Later', platforms: ['instagram'], scheduledAt } });
    expect(created.status).toBe(201);
    expect(created.body.post).toMatchObject({ status: 'scheduled', scheduledAt, platforms: ['instagram'] });
    const one = await stack.request('GET', `/api/v1/posts/${created.body.post.id}`, { key });
    expect(one.body.post).toMatchObject({ status: 'scheduled', scheduledAt, accounts: [{ platform: 'instagram', account: '@shop' }] });
  });

  it.each([
    ['neither accounts nor platforms', 'accounts_required', { content: 'x' }],
    ['both accounts and platforms', 'accounts_and_platforms', { content: 'x', accounts: ['@shop'], platforms: ['instagram'] }],
    ['an unknown account', 'unknown_account', { content: 'x', accounts: ['x:@ghost'] }],
    ['a disconnected account', 'account_disconnected', { content: 'x', accounts: ['linkedin:@old'] }],
    ['an ambiguous handle', 'ambiguous_account', { content: 'x', accounts: ['@acme'] }],
    ['an ambiguous platform', 'ambiguous_platform', { content: 'x', platforms: ['x'] }],
    ['neither content nor media', 'content_required', { accounts: ['@shop'] }],
    ['content over 10,000 characters', 'content_too_long', { content: 'a'.repeat(10_001), accounts: ['@shop'] }],
    ['scheduledAt with publishNow', 'scheduled_and_publish_now', { content: 'x', accounts: ['@shop'], scheduledAt: '2999-01-01T00:00:00Z', publishNow: true }],
    ['scheduledAt in the past', 'scheduled_at_in_past', { content: 'x', accounts: ['@shop'], scheduledAt: '2001-01-01T00:00:00Z' }],
    ['scheduledAt not a datetime', 'invalid_scheduled_at', { content: 'x', accounts: ['@shop'], scheduledAt: 'next week' }],
    ['a relative media path', 'invalid_media_url', { content: 'x', accounts: ['@shop'], mediaUrls: ['/a.png'] }],
    ['an http media url', 'invalid_media_url', { content: 'x', accounts: ['@shop'], mediaUrls: ['http://cdn.example.com/a.png'] }],
    ['11 media urls', 'too_many_media_urls', { content: 'x', accounts: ['@shop'], mediaUrls: Array.from({ length: 11 }, (_, i) => `https://cdn.example.com/${i}.png`) }],
    ['6 first comments', 'too_many_first_comments', { content: 'x', accounts: ['@shop'], firstComments: ['1', '2', '3', '4', '5', '6'] }],
    ['a first comment over 2,200 characters', 'first_comment_invalid', { content: 'x', accounts: ['@shop'], firstComments: ['c'.repeat(2_201)] }],
    ['11 distinct accounts', 'too_many_accounts', { content: 'x', accounts: crowd(11) }],
    ['an unknown platform', 'unknown_platform', { content: 'x', platforms: ['myspace'] }],
    ['a platform with no connected account', 'platform_not_connected', { content: 'x', platforms: ['tiktok'] }],
    ['accountIds (deprecated) with platforms', 'accounts_and_platforms', { content: 'x', accountIds: ['@shop'], platforms: ['instagram'] }],
    ['a field of the wrong type', 'invalid_body', { content: 42, accounts: ['@shop'] }],
  ])('refuses %s with %s and appends nothing', async (_name, code, body) => {
    const before = await stack.eventCount();
    const response = await stack.request('POST', '/api/v1/posts', { key, body });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe(code);
    expect(typeof response.body.error.message).toBe('string');
    expect(await stack.eventCount()).toBe(before);
  });

  it('accepts ten accounts, ignores duplicates (the same account named twice, or by handle and by id) and reads accountIds as accounts', async () => {
    const ten = await stack.request('POST', '/api/v1/posts', { key, body: { content: 'x', accounts: [...crowd(10), 'bluesky:@crowd0'] } });
    expect(ten.status).toBe(201);
    expect(ten.body.accounts).toHaveLength(10);
    const listed = (await stack.request('GET', '/api/v1/accounts', { key })).body.accounts as Array<{ id: string; account: string }>;
    const shopId = listed.find((a) => a.account === '@shop')!.id;
    const deduped = await stack.request('POST', '/api/v1/posts', { key, body: { content: 'x', accountIds: ['@shop', shopId, 'instagram:@shop'] } });
    expect(deduped.status).toBe(201);
    expect(deduped.body.accounts).toEqual([{ accountId: shopId, platform: 'instagram', account: '@shop' }]);
  });

  it('lists the candidates of an ambiguous platform', async () => {
    const response = await stack.request('POST', '/api/v1/posts', { key, body: { content: 'x', platforms: ['x'] } });
    expect(response.body.error.candidates.map((c: { account: string }) => c.account).sort()).toEqual(['@acme', '@news']);
  });

  it('lists the candidates of an ambiguous handle', async () => {
    const response = await stack.request('POST', '/api/v1/posts', { key, body: { content: 'x', accounts: ['@acme'] } });
    expect(response.body.error.candidates.map((c: { platform: string }) => c.platform).sort()).toEqual(['facebook', 'x']);
  });

  it('accepts every limit at its edge: 10,000 characters, 10 media urls, 5 first comments of 2,200 characters, and media without content', async () => {
    const media = Array.from({ length: 10 }, (_, i) => `https://cdn.example.com/${i}.png`);
    const atLimits = { content: 'a'.repeat(10_000), accounts: ['@shop'], mediaUrls: media, firstComments: Array.from({ length: 5 }, () => 'c'.repeat(2_200)) };
    const full = await stack.request('POST', '/api/v1/posts', { key, body: atLimits });
    expect(full.status).toBe(201);
    const stored = (await stack.request('GET', `/api/v1/posts/${full.body.post.id}`, { key })).body.post;
    expect(stored).toMatchObject({ content: atLimits.content, mediaUrls: media, firstComments: atLimits.firstComments });
    const mediaOnly = await stack.request('POST', '/api/v1/posts', { key, body: { accounts: ['@shop'], mediaUrls: [media[0]] } });
    expect(mediaOnly.status).toBe(201);
  });

  it("refuses another workspace's account, by id or by handle, with unknown_account and appends nothing", async () => {
    const other = await stack.workspace();
    const theirs = await stack.connect(other.workspaceId, 'tiktok', '@rival');
    for (const ref of [theirs.id, 'tiktok:@rival', '@rival']) {
      const before = await stack.eventCount();
      const response = await stack.request('POST', '/api/v1/posts', { key, body: { content: 'x', accounts: [ref] } });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('unknown_account');
      expect(await stack.eventCount()).toBe(before);
    }
  });
});

describe('POST /api/v1/posts: bodies that are not JSON objects', () => {
  let stack: TestStack;
  let key: string;
  beforeAll(async () => {
    stack = await TestStack.start({ apps: ['gateway'] });
    ({ key } = await stack.workspace(['write']));
  });
  afterAll(() => stack.stop());

  it('answers 400 invalid_body for malformed JSON', async () => {
    const response = await stack.request('POST', '/api/v1/posts', { key, body: '{"content":' });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_body');
  });

  it('answers 415 unsupported_media_type for a text body', async () => {
    const response = await stack.request('POST', '/api/v1/posts', { key, body: 'hello', headers: { 'content-type': 'text/plain' } });
    expect(response.status).toBe(415);
    expect(response.body.error.code).toBe('unsupported_media_type');
  });
});

import { TestStack } from '../support/test-stack';

/**
 * The detail view (GET /api/v1/posts/:id, issue 15) shows the post's `overrides` and
 * `platformOptions` as stored: overrides keyed by platform id or by the id of the account a
 * reference named, options by platform id; an edit's replace them whole; a post without them
 * keeps the spec's shape (neither field).
 */
describe('GET /api/v1/posts/:id shows overrides and platformOptions', () => {
  let stack: TestStack;
  let key: string;
  let workspaceId: string;

  beforeAll(async () => {
    stack = await TestStack.start();
    ({ key, workspaceId } = await stack.workspace());
  });
  afterAll(() => stack.stop());

  it('as stored on create, replaced by an edit, absent when none', async () => {
    const x = await stack.connect(workspaceId, 'x', '@detailx');
    const mastodon = await stack.connect(workspaceId, 'mastodon', '@detailm');
    const created = await stack.request('POST', '/api/v1/posts', {
      key,
      body: {
        content: 'A long announcement for everyone',
        accounts: [`x:${x.handle}`, `mastodon:${mastodon.handle}`],
        overrides: { x: { content: 'Short for X' }, [`mastodon:${mastodon.handle}`]: { firstComments: ['More soon'] } },
        platformOptions: { mastodon: { visibility: 'unlisted' } },
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.post.id;
    const detail = await stack.request('GET', `/api/v1/posts/${id}`, { key });
    expect(detail.body.post).toMatchObject({
      overrides: { x: { content: 'Short for X' }, [mastodon.id]: { firstComments: ['More soon'] } },
      platformOptions: { mastodon: { visibility: 'unlisted' } },
    });

    const edited = await stack.request('PATCH', `/api/v1/posts/${id}`, { key, body: { platformOptions: { x: { reply_settings: 'following' } }, overrides: {} } });
    expect(edited.status).toBe(200);
    const after = (await stack.request('GET', `/api/v1/posts/${id}`, { key })).body.post;
    expect(after.platformOptions).toEqual({ x: { reply_settings: 'following' } });
    expect(after).not.toHaveProperty('overrides');

    const plain = await stack.request('POST', '/api/v1/posts', { key, body: { content: 'Plain', accounts: [`x:${x.handle}`] } });
    const plainDetail = (await stack.request('GET', `/api/v1/posts/${plain.body.post.id}`, { key })).body.post;
    expect(plainDetail).not.toHaveProperty('overrides');
    expect(plainDetail).not.toHaveProperty('platformOptions');
  });
});

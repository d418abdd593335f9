import { usePostsStack } from './posts-fixture';

/**
 * One post shaped per platform and per account (issue 15, overrides): through HTTP, the posts
 * service's rules, the events, the publisher's per-account publication and the platform sandbox,
 * which counts each text the platform's documented way (X: https://docs.x.com/fundamentals/counting-characters).
 */
describe('overrides on POST and PATCH /api/v1/posts', () => {
  const posts = usePostsStack('ov');
  const { account, create, sandbox } = posts;
  const patch = (id: string, body: unknown) => posts.stack.request('PATCH', `/api/v1/posts/${id}`, { key: posts.key, body });
  const eventData = async (id: string, type: string) => {
    const { rows } = await posts.stack.db.pool.query<{ data: Record<string, unknown> }>('SELECT data FROM events WHERE stream_id = $1 AND type = $2 ORDER BY stream_position', [`post-${id}`, type]);
    return rows.map((row) => row.data);
  };
  const textOn = (token: string) => sandbox().published({ account: token, kind: 'post' }).map((item) => item.text);
  async function commentsOn(token: string, count: number): Promise<string[]> {
    const deadline = Date.now() + 5_000;
    while (sandbox().published({ account: token, kind: 'comment' }).length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    return sandbox().published({ account: token, kind: 'comment' }).map((item) => item.text);
  }

  it('publishes to each account what its platform override and then its own override give, the rest inherited from the post', async () => {
    const [x1, x2, mastodon, linkedin] = [await account('x'), await account('x'), await account('mastodon'), await account('linkedin')];
    // 400 characters: fine for Mastodon (500) and LinkedIn (3,000), too long for X (280): X gets its own.
    const long = `${'A long announcement. '.repeat(19)}The end!!!`.slice(0, 400);
    const response = await create({
      content: long,
      accounts: [x1.ref, x2.ref, mastodon.ref, linkedin.ref],
      publishNow: true,
      overrides: { x: { content: 'Short, for X' }, [x2.ref]: { content: 'Only for the second X account' }, mastodon: { firstComments: ['More below'] } },
    });
    expect(response.status).toBe(201);
    expect(response.body.post.status).toBe('published');
    expect(textOn(x1.token)).toEqual(['Short, for X']);
    expect(textOn(x2.token)).toEqual(['Only for the second X account']);
    expect(textOn(mastodon.token)).toEqual([long]);
    expect(textOn(linkedin.token)).toEqual([long]);
    expect(await commentsOn(mastodon.token, 1)).toEqual(['More below']);
    expect(sandbox().published({ account: linkedin.token, kind: 'comment' })).toEqual([]);
    // The account reference is stored as the account's id, so a rename never detaches it.
    const overrides = { x: { content: 'Short, for X' }, [x2.id]: { content: 'Only for the second X account' }, mastodon: { firstComments: ['More below'] } };
    expect(await eventData(response.body.post.id, 'PostCreated')).toEqual([expect.objectContaining({ content: long, overrides })]);
    expect(await eventData(response.body.post.id, 'PublishRequested')).toEqual([expect.objectContaining({ overrides })]);
  });

  it('takes a post without top-level content when every account gets content from an override', async () => {
    const [x, mastodon] = [await account('x'), await account('mastodon')];
    const response = await create({ accounts: [x.ref, mastodon.ref], overrides: { x: { content: 'For X' }, [mastodon.id]: { content: 'For Mastodon' } }, publishNow: true });
    expect(response.status).toBe(201);
    expect(textOn(x.token)).toEqual(['For X']);
    expect(textOn(mastodon.token)).toEqual(['For Mastodon']);

    const before = await posts.stack.eventCount();
    const missing = await create({ accounts: [x.ref, mastodon.ref], overrides: { x: { content: 'For X' } } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'content_required', details: { accountId: mastodon.id } });
    expect(await posts.stack.eventCount()).toBe(before);
  });

  describe('refusals name the override and append nothing', () => {
    let x: Awaited<ReturnType<typeof account>>;
    let mastodon: Awaited<ReturnType<typeof account>>;
    beforeAll(async () => {
      [x, mastodon] = [await account('x'), await account('mastodon')];
    });

    it.each<[string, string, () => Record<string, unknown>, Record<string, unknown>]>([
      // 141 CJK characters weigh 282 on X (each weighs 2), over its 280.
      ['X text over 280 weighted characters', 'override_not_publishable', () => ({ x: { content: '漢'.repeat(141) } }), { override: 'x', platform: 'x', reason: 'content_too_long' }],
      ['five media for Mastodon (it takes four)', 'override_not_publishable', () => ({ mastodon: { mediaUrls: [1, 2, 3, 4, 5].map((n) => `https://cdn.example.com/${n}.jpg`) } }), { override: 'mastodon', reason: 'media_not_supported' }],
      ['a platform the post does not target', 'invalid_override_key', () => ({ facebook: { content: 'hi' } }), { override: 'facebook' }],
      ['an account reference the post does not target', 'invalid_override_key', () => ({ 'x:@nobody': { content: 'hi' } }), { override: 'x:@nobody' }],
      ['two keys for one account', 'invalid_override_key', () => ({ [x.ref]: { content: 'a' }, [x.id]: { content: 'b' } }), { sameAs: expect.stringMatching(/^x:@ovx/) }],
      ['a media url that is not https', 'invalid_media_url', () => ({ x: { mediaUrls: ['http://cdn.example.com/a.jpg'] } }), { override: 'x', index: 0 }],
      ['alt text without its own media', 'alt_text_mismatch', () => ({ x: { altText: ['a photo'] } }), { override: 'x' }],
      ['an empty first comment', 'first_comment_invalid', () => ({ mastodon: { firstComments: [' '] } }), { override: 'mastodon', index: 0 }],
    ])('%s: %s', async (_name, code, overrides, details) => {
      const before = await posts.stack.eventCount();
      const response = await create({ content: 'Hello', accounts: [x.ref, mastodon.ref], overrides: overrides() });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code, message: expect.any(String), details });
      expect(await posts.stack.eventCount()).toBe(before);
    });

    it('a field overrides do not have: unknown_field, by its path, with the fields they take', async () => {
      const before = await posts.stack.eventCount();
      const response = await create({ content: 'Hello', accounts: [x.ref], overrides: { x: { text: 'hi' } } });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'unknown_field', details: { field: 'overrides.x.text', suggestion: null, allowed: ['content', 'mediaUrls', 'altText', 'firstComments'] } });
      expect(await posts.stack.eventCount()).toBe(before);
    });

    it.each([
      ['an override that is not an object', { x: 'hi' }],
      ['overrides that are not an object', ['x']],
      ['content that is not a string', { x: { content: 42 } }],
    ])('%s: invalid_body', async (_name, overrides) => {
      const before = await posts.stack.eventCount();
      const response = await create({ content: 'Hello', accounts: [x.ref], overrides });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_body');
      expect(await posts.stack.eventCount()).toBe(before);
    });
  });

  it('the OpenAPI document shows overrides and platformOptions on create and edit, with examples and their codes', async () => {
    type Schema = { $ref?: string; properties?: Record<string, { example?: unknown; description?: string }> };
    const doc = (await posts.stack.request('GET', '/api/openapi.json')).body;
    const bodyOf = (method: string, path: string): Schema => {
      const schema: Schema = doc.paths[path][method].requestBody.content['application/json'].schema;
      return schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()!] : schema;
    };
    for (const [method, path] of [['post', '/api/v1/posts'], ['patch', '/api/v1/posts/{id}']]) {
      const { properties } = bodyOf(method, path);
      expect(properties?.overrides).toMatchObject({ example: expect.objectContaining({ x: expect.anything() }), description: expect.stringContaining('override_not_publishable') });
      expect(properties?.platformOptions).toMatchObject({ example: expect.objectContaining({ x: { reply_settings: 'following' } }), description: expect.stringContaining('platform_option_invalid') });
    }
  });

  it('edits carry overrides: replaced whole, checked like a create, {} removes them; publishing sends what the edit left', async () => {
    const x = await account('x');
    const id = (await create({ content: 'The post', accounts: [x.ref] })).body.post.id;

    expect((await patch(id, { overrides: { x: { content: 'Edited for X' } } })).status).toBe(200);
    const before = await posts.stack.eventCount();
    const refused = await patch(id, { overrides: { x: { content: 'x'.repeat(281) } } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'override_not_publishable', details: { override: 'x', reason: 'content_too_long' } });
    expect(await posts.stack.eventCount()).toBe(before);
    expect(await eventData(id, 'PostEdited')).toEqual([expect.objectContaining({ overrides: { x: { content: 'Edited for X' } } })]);

    const published = await posts.stack.request('POST', `/api/v1/posts/${id}/publish`, { key: posts.key });
    expect(published.status).toBe(201);
    expect(published.body.post.status).toBe('published');
    expect(textOn(x.token)).toEqual(['Edited for X']);

    const second = await account('x');
    const draft = (await create({ content: 'Plain', accounts: [second.ref], overrides: { x: { content: 'Shaped' } } })).body.post.id;
    expect((await patch(draft, { overrides: {} })).status).toBe(200);
    expect((await posts.stack.request('POST', `/api/v1/posts/${draft}/publish`, { key: posts.key })).status).toBe(201);
    expect(textOn(second.token)).toEqual(['Plain']);
  });
});

import { Platform } from '@app/contracts';
import { TestStack, tokenOf } from '../support/test-stack';

/**
 * Alt text per media item (issue 10): `altText` pairs with `mediaUrls` entry by entry, through the
 * posts service's events to the post view and to the publication the publisher consumes.
 */
describe('altText on POST and PATCH /api/v1/posts', () => {
  let stack: TestStack;
  let key: string;
  const photos = ['https://cdn.example.com/bicycle.jpg', 'https://cdn.example.com/wall.png'];
  const bicycle = 'A red bicycle leaning against a white wall 🚲';

  beforeAll(async () => {
    // No publisher: the test reads the publication the publisher would consume from the event store.
    stack = await TestStack.start({ apps: ['projector', 'posts', 'gateway'], overrides: { publishWaitMs: 200 } });
    const ws = await stack.workspace(['read', 'write', 'publish']);
    key = ws.key;
    await stack.connect(ws.workspaceId, 'mastodon', '@acme');
  });
  afterAll(() => stack.stop());

  const create = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    stack.request('POST', '/api/v1/posts', { key, body: { content: 'Photos', accounts: ['mastodon:@acme'], ...body }, headers });
  const get = async (id: string) => (await stack.request('GET', `/api/v1/posts/${id}`, { key })).body.post;
  const patch = (id: string, body: unknown) => stack.request('PATCH', `/api/v1/posts/${id}`, { key, body });
  const eventData = async (id: string, type: string) => {
    const { rows } = await stack.db.pool.query<{ data: Record<string, unknown> }>('SELECT data FROM events WHERE stream_id = $1 AND type = $2 ORDER BY stream_position', [
      `post-${id}`,
      type,
    ]);
    return rows.map((row) => row.data);
  };

  it('keeps alt text per media item: in PostCreated, in the post view, and in the publication the publisher receives', async () => {
    const created = await create({ mediaUrls: photos, altText: [bicycle, null] });
    expect(created.status).toBe(201);
    const id = created.body.post.id;
    expect(await eventData(id, 'PostCreated')).toEqual([expect.objectContaining({ mediaUrls: photos, altText: [bicycle, null] })]);
    expect(await get(id)).toMatchObject({ mediaUrls: photos, altText: [bicycle, null] });
    // The list item is the spec's shape, alt text or not.
    const listed = (await stack.request('GET', '/api/v1/posts', { key })).body.posts.find((post: { id: string }) => post.id === id);
    expect(listed).not.toHaveProperty('altText');

    const published = await stack.request('POST', `/api/v1/posts/${id}/publish`, { key });
    expect(published.status).toBe(202);
    expect(await eventData(id, 'PublishRequested')).toEqual([expect.objectContaining({ mediaUrls: photos, altText: [bicycle, null] })]);
  });

  it('shows no altText on a post without any: absent, [], or only null and "" entries', async () => {
    for (const altText of [undefined, [], [null, '']]) {
      const created = await create({ mediaUrls: photos, altText });
      expect(created.status).toBe(201);
      const post = await get(created.body.post.id);
      expect(post.mediaUrls).toEqual(photos);
      expect(post).not.toHaveProperty('altText');
      expect(await eventData(created.body.post.id, 'PostCreated')).toEqual([expect.objectContaining({ altText: [] })]);
    }
  });

  it('edits: altText alone describes the current media, new mediaUrls without altText clear it, both together replace both', async () => {
    const id = (await create({ mediaUrls: photos, altText: [bicycle, null] })).body.post.id;

    expect((await patch(id, { altText: [null, 'A white wall'] })).status).toBe(200);
    expect(await get(id)).toMatchObject({ mediaUrls: photos, altText: [null, 'A white wall'] });

    expect((await patch(id, { mediaUrls: [photos[1]] })).status).toBe(200);
    const cleared = await get(id);
    expect(cleared.mediaUrls).toEqual([photos[1]]);
    expect(cleared).not.toHaveProperty('altText');

    expect((await patch(id, { mediaUrls: photos, altText: ['one', 'two'] })).status).toBe(200);
    expect(await get(id)).toMatchObject({ mediaUrls: photos, altText: ['one', 'two'] });
    expect((await patch(id, { content: 'Photos, reworded' })).status).toBe(200);
    expect(await get(id)).toMatchObject({ content: 'Photos, reworded', altText: ['one', 'two'] });

    expect(await eventData(id, 'PostEdited')).toEqual([
      expect.objectContaining({ altText: [null, 'A white wall'] }),
      expect.objectContaining({ mediaUrls: [photos[1]], altText: [] }),
      expect.objectContaining({ mediaUrls: photos, altText: ['one', 'two'] }),
      expect.not.objectContaining({ altText: expect.anything() }),
    ]);
  });

  it('a repeat with the same Idempotency-Key and other alt text is another request (422)', async () => {
    const headers = { 'idempotency-key': `alt-${Date.now()}` };
    expect((await create({ mediaUrls: [photos[0]], altText: ['first'] }, headers)).status).toBe(201);
    const repeated = await create({ mediaUrls: [photos[0]], altText: ['second'] }, headers);
    expect(repeated.status).toBe(422);
    expect(repeated.body.error.code).toBe('idempotency_key_reused');
  });

  it.each([
    ['fewer entries than mediaUrls', 'alt_text_mismatch', { mediaUrls: photos, altText: [bicycle] }],
    ['more entries than mediaUrls', 'alt_text_mismatch', { mediaUrls: [photos[0]], altText: [bicycle, null] }],
    ['altText without mediaUrls', 'alt_text_mismatch', { altText: [bicycle] }],
    ['an entry over 1,000 characters', 'alt_text_too_long', { mediaUrls: photos, altText: [null, 'x'.repeat(1_001)] }],
    ['an entry that is neither a string nor null', 'invalid_body', { mediaUrls: [photos[0]], altText: [42] }],
    ['altText that is not an array', 'invalid_body', { mediaUrls: [photos[0]], altText: bicycle }],
  ])('refuses a create with %s (%s) and appends nothing', async (_name, code, body) => {
    const before = await stack.eventCount();
    const response = await create(body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe(code);
    expect(typeof response.body.error.message).toBe('string');
    expect(await stack.eventCount()).toBe(before);
  });

  it.each([
    ['altText alone of another length than the current mediaUrls', 'alt_text_mismatch', { altText: ['one'] }],
    ['altText with the media removed', 'alt_text_mismatch', { mediaUrls: [], altText: ['one', 'two'] }],
    ['an entry over 1,000 characters', 'alt_text_too_long', { altText: ['😀'.repeat(1_001), null] }],
  ])('refuses an edit with %s (%s) and appends nothing', async (_name, code, body) => {
    const id = (await create({ mediaUrls: photos, altText: [bicycle, null] })).body.post.id;
    const before = await stack.eventCount();
    const response = await patch(id, body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe(code);
    expect(await stack.eventCount()).toBe(before);
    expect(await get(id)).toMatchObject({ mediaUrls: photos, altText: [bicycle, null] });
  });
});

/**
 * From the API to the platform: publishNow with two images and their alt text, through the publisher
 * and each connector's native upload, to the sandbox, which records the alt text each platform's
 * documented field carried: X "Create Media metadata" (metadata.alt_text.text,
 * https://docs.x.com/x-api/media/create-media-metadata), Mastodon `description` on POST /api/v2/media
 * (https://docs.joinmastodon.org/methods/media/#v2), Bluesky `alt` of app.bsky.embed.images
 * (https://atproto.com/guides/images-and-video).
 */
describe('altText reaches the platforms', () => {
  let stack: TestStack;
  let key: string;
  let workspaceId: string;

  beforeAll(async () => {
    stack = await TestStack.start({ sandbox: true, overrides: { publishWaitMs: 8_000 } });
    ({ key, workspaceId } = await stack.workspace());
  });
  afterAll(() => stack.stop());

  it.each<Platform>(['x', 'mastodon', 'bluesky'])('%s: each image carries its own alt text, none where the entry is null', async (platform) => {
    const handle = `@alt${platform}`;
    await stack.connect(workspaceId, platform, handle);
    const images = [`${stack.sandbox!.mediaUrl}/media/${platform}-bicycle.jpg?width=1200&height=800`, `${stack.sandbox!.mediaUrl}/media/${platform}-wall.png?width=800&height=800`];
    const response = await stack.request('POST', '/api/v1/posts', {
      key,
      body: { content: 'Two photos', accounts: [`${platform}:${handle}`], mediaUrls: images, altText: ['A red bicycle', null], publishNow: true },
    });
    expect(response.status).toBe(201);
    expect(response.body.results).toEqual([expect.objectContaining({ success: true })]);
    const [item] = stack.sandbox!.control.published({ platform, account: tokenOf(handle), kind: 'post' });
    expect(item.media.map((upload) => upload.altText)).toEqual(['A red bicycle', null]);
  });
});

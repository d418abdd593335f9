import { TestStack } from '../support/test-stack';
import { CommentsWorld, sleep, startCommentsStack, TestAccount } from './comments-fixture';

/**
 * Cursor pagination of GET /api/v1/posts and GET /api/v1/comments (issue 16, part 5): `cursor` in,
 * `nextCursor` out, null on the last page; a walk sees every item exactly once, in order, while
 * items are being added; a cursor only continues the list and filters it was issued for; the
 * spec's limit rules (default 20, clamped to 50) hold per page.
 */
describe('cursor pagination of the lists', () => {
  let stack: TestStack;
  let world: CommentsWorld;
  let key: string;
  let workspaceId: string;
  let x: TestAccount;
  let mastodon: TestAccount;

  interface Page {
    status: number;
    body: { nextCursor: string | null; error?: { code: string; message: string } } & Record<string, unknown>;
  }
  const get = (path: string, query: Record<string, string>): Promise<Page> => stack.request('GET', `${path}?${new URLSearchParams(query)}`, { key });

  /** Follows nextCursor from the first page to the last, collecting the ids `idOf` reads from each page. */
  async function walk(path: string, itemsOf: (body: Page['body']) => string[], query: Record<string, string>, onPage: () => Promise<void> = async () => undefined) {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Page = await get(path, cursor === null ? query : { ...query, cursor });
      expect(page.status).toBe(200);
      const items = itemsOf(page.body);
      expect(items.length).toBeLessThanOrEqual(Number(query.limit ?? 20));
      seen.push(...items);
      cursor = page.body.nextCursor;
      pages++;
      await onPage();
    } while (cursor !== null);
    return { seen, pages };
  }
  const postIds = (body: Page['body']) => (body.posts as Array<{ id: string }>).map((p) => p.id);
  const commentIds = (body: Page['body']) => (body.comments as Array<{ platformCommentId: string }>).map((c) => c.platformCommentId);
  const draft = async (content: string) => {
    const response = await stack.request('POST', '/api/v1/posts', { key, body: { content, accounts: [x.id] } });
    expect(response.status).toBe(201);
    return response.body.post.id as string;
  };
  /** The list's true order, from the read model itself: newest first, ties by id. */
  const storedPostOrder = async () =>
    (await stack.db.pool.query<{ id: string }>('SELECT id FROM post_views WHERE workspace_id = $1 ORDER BY created_at DESC, id DESC', [workspaceId])).rows.map((r) => r.id);

  beforeAll(async () => {
    stack = await startCommentsStack();
    world = new CommentsWorld(stack);
    ({ workspaceId, key } = await stack.workspace());
    x = await world.account(workspaceId, 'x');
    mastodon = await world.account(workspaceId, 'mastodon');
    // 120 drafts, four at a time (their order is whatever the read model says, read back below).
    for (let i = 0; i < 120; i += 4) await Promise.all([0, 1, 2, 3].map((j) => draft(`draft ${i + j}`)));
    const later = new Date(Date.now() + 86_400_000).toISOString();
    for (let i = 0; i < 3; i++) {
      expect((await stack.request('POST', '/api/v1/posts', { key, body: { content: `scheduled ${i}`, accounts: [x.id], scheduledAt: later } })).status).toBe(201);
    }
  }, 120_000);
  afterAll(() => stack?.stop());

  it('walks 120 posts page by page, each exactly once and in order, while posts are being created', async () => {
    const before = await storedPostOrder();
    expect(before).toHaveLength(123); // the 120 drafts and the 3 scheduled posts
    let creating = true;
    let createdDuring = 0;
    const writer = (async () => {
      while (creating) {
        await draft(`written during the walk ${createdDuring}`);
        createdDuring++;
      }
    })();
    // Each page waits for one more post to be written, so inserts land between every two pages.
    const { seen, pages } = await walk('/api/v1/posts', postIds, { limit: '7' }, async () => {
      const target = createdDuring + 1;
      while (createdDuring < target) await sleep(5);
    });
    creating = false;
    await writer;
    expect(createdDuring).toBeGreaterThanOrEqual(pages);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(before);
    expect(pages).toBe(Math.ceil(123 / 7));
    // The posts written meanwhile were all newer than the walk's first page: a new walk starts with them.
    const after = await storedPostOrder();
    expect(after).toHaveLength(123 + createdDuring);
    expect(after.slice(createdDuring)).toEqual(before);
  });

  it('walks a status filter with the cursors it issues', async () => {
    const scheduled = await walk('/api/v1/posts', postIds, { status: 'scheduled', limit: '2' });
    expect(scheduled.pages).toBe(2);
    const stored = (await stack.db.pool.query<{ id: string }>(`SELECT id FROM post_views WHERE workspace_id = $1 AND status = 'scheduled' ORDER BY created_at DESC, id DESC`, [workspaceId])).rows.map((r) => r.id);
    expect(scheduled.seen).toEqual(stored);
  });

  it('keeps the limit rules: 20 by default, clamped to 50, per page; nextCursor null on the last page', async () => {
    const all = await storedPostOrder();
    const first = await get('/api/v1/posts', {});
    expect(postIds(first.body)).toEqual(all.slice(0, 20));
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const clamped = await get('/api/v1/posts', { limit: '500' });
    expect(postIds(clamped.body)).toEqual(all.slice(0, 50));
    const second = await get('/api/v1/posts', { limit: '500', cursor: clamped.body.nextCursor! });
    expect(postIds(second.body)).toEqual(all.slice(50, 100));
    // A page that ends exactly at the last post says so: no empty page to fetch.
    const exact = await get('/api/v1/posts', { status: 'scheduled', limit: '3' });
    expect(postIds(exact.body)).toHaveLength(3);
    expect(exact.body.nextCursor).toBeNull();
    expect((await get('/api/v1/posts', { status: 'failed' })).body).toEqual({ posts: [], nextCursor: null });
    for (const limit of ['0', '-1', '2.5', 'ten']) {
      const refused = await get('/api/v1/posts', { limit, cursor: first.body.nextCursor! });
      expect(refused.status).toBe(400);
      expect(refused.body.error!.code).toBe('invalid_query');
    }
  });

  it('refuses a cursor issued for another filter, or by the other list, with invalid_query', async () => {
    const drafts = await get('/api/v1/posts', { status: 'draft', limit: '5' });
    const cursor = drafts.body.nextCursor!;
    expect(cursor).toEqual(expect.any(String));
    for (const query of [{ status: 'scheduled', cursor }, { cursor }] as Array<Record<string, string>>) {
      const refused = await get('/api/v1/posts', query);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'invalid_query', message: expect.stringContaining('status=draft') });
    }
    const onComments = await get('/api/v1/comments', { cursor });
    expect(onComments.status).toBe(400);
    expect(onComments.body.error).toMatchObject({ code: 'invalid_query', message: expect.stringContaining('posts list') });
    // The same filters, given in another order or with the default limit, continue it.
    expect((await get('/api/v1/posts', { cursor, status: 'draft' })).status).toBe(200);
  });

  it.each([
    ['not base64url', '!!!'],
    ['base64url of no JSON', Buffer.from('hello').toString('base64url')],
    ['JSON without a position', Buffer.from(JSON.stringify({ list: 'posts', filter: {} })).toString('base64url')],
    ['an id that is no uuid', Buffer.from(JSON.stringify({ list: 'posts', filter: {}, sortKeyMicros: '1', id: "x' OR 1=1" })).toString('base64url')],
    ['a sort key that is no integer', Buffer.from(JSON.stringify({ list: 'posts', filter: {}, sortKeyMicros: '1e3', id: '00000000-0000-7000-8000-000000000000' })).toString('base64url')],
    ['a sort key beyond any timestamp', Buffer.from(JSON.stringify({ list: 'posts', filter: {}, sortKeyMicros: '9223372036854775807', id: '00000000-0000-7000-8000-000000000000' })).toString('base64url')],
    ['an empty cursor', ''],
    ['an overlong cursor', 'A'.repeat(1025)],
  ])('refuses a malformed cursor (%s) with invalid_query', async (_name, cursor) => {
    for (const path of ['/api/v1/posts', '/api/v1/comments']) {
      const refused = await get(path, { cursor });
      expect(refused.status).toBe(400);
      expect(refused.body.error!.code).toBe('invalid_query');
    }
  });

  it('answers the extreme positions a cursor may hold: everything before the latest instant, nothing before the earliest', async () => {
    const at = (sortKeyMicros: string) => Buffer.from(JSON.stringify({ list: 'posts', filter: {}, sortKeyMicros, id: '00000000-0000-7000-8000-000000000000' })).toString('base64url');
    const latest = await get('/api/v1/posts', { cursor: at('8640000000000000000'), limit: '3' });
    expect(latest.status).toBe(200);
    expect(postIds(latest.body)).toEqual((await storedPostOrder()).slice(0, 3));
    expect(await get('/api/v1/posts', { cursor: at('-210866803200000000') })).toMatchObject({ status: 200, body: { posts: [], nextCursor: null } });
  });

  it('walks the comments, every filter bound to its cursors, while comments arrive', async () => {
    const [onX, onMastodon] = [await world.publish(key, x), await world.publish(key, mastodon)];
    const added = Array.from({ length: 45 }, (_, i) =>
      i % 3 === 0 ? world.comment('x', onX, `Love it ${i}, thank you!`).id : world.comment('mastodon', onMastodon, `comment number ${i}`).id,
    );
    const stored = async (where = '') =>
      (await stack.db.pool.query<{ platform_comment_id: string }>(
        `SELECT platform_comment_id FROM comment_views WHERE workspace_id = $1 ${where} ORDER BY commented_at DESC, id DESC`,
        [workspaceId],
      )).rows.map((r) => r.platform_comment_id);
    const deadline = Date.now() + 20_000;
    while ((await stored()).length < added.length && Date.now() < deadline) await sleep(50);
    const before = await stored();
    expect(before).toHaveLength(45);

    let arriving = 0;
    const all = await walk('/api/v1/comments', commentIds, { limit: '4' }, async () => {
      world.comment('mastodon', onMastodon, `arrived during the walk ${arriving++}`);
      await sleep(60); // the poller runs every 50 ms: the new comment is usually stored before the next page
    });
    expect(all.seen).toEqual(before);
    expect(new Set(all.seen).size).toBe(45);
    expect(arriving).toBe(all.pages);
    while ((await stored()).length < 45 + arriving && Date.now() < deadline + 10_000) await sleep(50);
    const mastodonBefore = await stored(`AND platform = 'mastodon'`);
    expect(mastodonBefore).toHaveLength(30 + arriving);
    const onMastodonOnly = await walk('/api/v1/comments', commentIds, { platform: 'mastodon', unreplied: '1', limit: '7' });
    expect(onMastodonOnly.seen).toEqual(mastodonBefore);

    const cursor = (await get('/api/v1/comments', { platform: 'mastodon', limit: '2' })).body.nextCursor!;
    const refused = await get('/api/v1/comments', { platform: 'x', cursor });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'invalid_query', message: expect.stringContaining('platform=mastodon') });
    expect((await get('/api/v1/posts', { cursor })).body.error!.code).toBe('invalid_query');
  });
});

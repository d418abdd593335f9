import { TestStack } from '../support/test-stack';
import { CommentsWorld, PublishedItem, startCommentsStack } from './comments-fixture';

/** GET /api/v1/comments: newest first, every filter, the limit, invalid values, one workspace only. */
describe('GET /api/v1/comments', () => {
  let stack: TestStack;
  let world: CommentsWorld;
  let key: string;
  /** Platform comment ids, oldest first: x praise, mastodon complaint, x question, x complaint (replied); X and Mastodon give times to the millisecond. */
  let ids: string[];
  /** The posts the comments sit under, and the accounts they were published as. */
  let onX: PublishedItem;
  let onMastodon: PublishedItem;
  let accounts: { x: string; mastodon: string };

  beforeAll(async () => {
    stack = await startCommentsStack();
    world = new CommentsWorld(stack);
    const workspace = await stack.workspace();
    key = workspace.key;
    const [x, mastodon] = [await world.account(workspace.workspaceId, 'x'), await world.account(workspace.workspaceId, 'mastodon')];
    [onX, onMastodon] = [await world.publish(key, x), await world.publish(key, mastodon)];
    accounts = { x: x.id, mastodon: mastodon.id };
    const added = [
      world.comment('x', onX, 'Absolutely love this, thank you!'),
      world.comment('mastodon', onMastodon, 'This update broke everything, awful.'),
      world.comment('x', onX, 'What time does the store open?'),
      world.comment('x', onX, 'Still waiting for my refund, terrible.'),
    ];
    ids = added.map((c) => c.id);
    await world.untilListed(key, ids);
    const reply = await stack.request('POST', '/api/v1/comments/reply', { key, body: { platform: 'x', commentId: ids[3], message: 'Sorry! We are on it.' } });
    expect(reply.status).toBe(200);
  });
  afterAll(() => stack.stop());

  const idsOf = (body: { comments: Array<{ platformCommentId: string }> }) => body.comments.map((c) => c.platformCommentId);

  it('lists newest first, with replied as the workspace left it', async () => {
    const { status, body } = await world.list(key);
    expect(status).toBe(200);
    expect(idsOf(body)).toEqual([...ids].reverse());
    expect(body.comments.map((c) => c.replied)).toEqual([true, false, false, false]);
  });

  it.each([
    ['?platform=x', [3, 2, 0]],
    ['?platform=mastodon', [1]],
    ['?platform=facebook', []],
    ['?sentiment=negative', [3, 1]],
    ['?sentiment=positive', [0]],
    ['?unreplied=1', [2, 1, 0]],
    ['?platform=x&sentiment=negative&unreplied=1', []],
    ['?platform=x&unreplied=1&limit=1', [2]],
  ])('filters %s', async (query, expected) => {
    const { status, body } = await world.list(key, query);
    expect(status).toBe(200);
    expect(idsOf(body)).toEqual(expected.map((i) => ids[i]));
  });

  it('says which post each comment sits under and which account it came to', async () => {
    const { body } = await world.list(key);
    const byId = Object.fromEntries(body.comments.map((c) => [c.platformCommentId, c]));
    expect(byId[ids[0]]).toMatchObject({ postId: onX.postId, accountId: accounts.x });
    expect(byId[ids[1]]).toMatchObject({ postId: onMastodon.postId, accountId: accounts.mastodon });
    // The postId is the service's post: GET /api/v1/posts/:id answers it.
    expect((await stack.request('GET', `/api/v1/posts/${byId[ids[1]].postId}`, { key })).body.post).toMatchObject({ id: onMastodon.postId, platforms: ['mastodon'] });
  });

  it('filters by post, alone and with the other filters', async () => {
    expect(idsOf((await world.list(key, `?postId=${onX.postId}`)).body)).toEqual([ids[3], ids[2], ids[0]]);
    expect(idsOf((await world.list(key, `?postId=${onMastodon.postId}`)).body)).toEqual([ids[1]]);
    expect(idsOf((await world.list(key, `?postId=${onX.postId}&unreplied=1&sentiment=negative`)).body)).toEqual([]);
    expect(idsOf((await world.list(key, `?postId=${onX.postId}&platform=mastodon`)).body)).toEqual([]);
    // A post of another workspace shows nothing, not its comments.
    const other = await stack.workspace();
    expect(idsOf((await world.list(other.key, `?postId=${onX.postId}`)).body)).toEqual([]);
  });

  it('filters by intent tag: only the comments carrying it, in list order', async () => {
    const all = (await world.list(key)).body.comments;
    const question = await world.list(key, '?tag=question');
    expect(question.status).toBe(200);
    expect(idsOf(question.body)).toEqual([ids[2]]);
    for (const tag of ['question', 'complaint', 'praise', 'spam', 'purchase_intent', 'urgent']) {
      const { status, body } = await world.list(key, `?tag=${tag}`);
      expect(status).toBe(200);
      expect(idsOf(body)).toEqual(all.filter((c) => c.tags.includes(tag)).map((c) => c.platformCommentId));
    }
    expect(idsOf((await world.list(key, `?tag=question&postId=${onMastodon.postId}`)).body)).toEqual([]);
  });

  it('pages a filtered list by its cursor, which stays bound to its filters', async () => {
    const first = await world.list(key, `?postId=${onX.postId}&limit=2`);
    expect(idsOf(first.body)).toEqual([ids[3], ids[2]]);
    const cursor = first.body.nextCursor as string;
    const second = await world.list(key, `?postId=${onX.postId}&limit=2&cursor=${cursor}`);
    expect(idsOf(second.body)).toEqual([ids[0]]);
    expect(second.body.nextCursor).toBeNull();
    for (const other of [`?postId=${onMastodon.postId}`, '', '?tag=question']) {
      const refused = await world.list(key, `${other}${other ? '&' : '?'}limit=2&cursor=${cursor}`);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'invalid_query' });
    }
  });

  it('the three sentiment filters split the list: each returns only its own, together every comment once', async () => {
    const bySentiment = await Promise.all(['positive', 'negative', 'neutral'].map(async (sentiment) => {
      const { status, body } = await world.list(key, `?sentiment=${sentiment}`);
      expect(status).toBe(200);
      expect(body.comments.map((c) => c.sentiment)).toEqual(body.comments.map(() => sentiment));
      return idsOf(body);
    }));
    expect(bySentiment.flat().sort()).toEqual([...ids].sort());
  });

  it('takes 20 by default and clamps the limit to 50', async () => {
    const { workspaceId, key: other } = await stack.workspace();
    const mastodon = await world.account(workspaceId, 'mastodon');
    const item = await world.publish(other, mastodon);
    const many = Array.from({ length: 52 }, (_, i) => world.comment('mastodon', item, `comment number ${i}`).id);
    const stored = async () => Number((await stack.db.pool.query('SELECT count(*) FROM comment_views WHERE workspace_id = $1', [workspaceId])).rows[0].count);
    const deadline = Date.now() + 15_000;
    while ((await stored()) < many.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(idsOf((await world.list(other)).body)).toEqual(many.slice(-20).reverse());
    expect(idsOf((await world.list(other, '?limit=500')).body)).toEqual(many.slice(-50).reverse());
    expect(idsOf((await world.list(other, '?limit=3')).body)).toEqual(many.slice(-3).reverse());
  });

  it.each([
    ['an unknown platform', '?platform=myspace'],
    ['a platform in capitals', '?platform=Facebook'],
    ['an unknown sentiment', '?sentiment=angry'],
    ['unreplied=0', '?unreplied=0'],
    ['unreplied=true', '?unreplied=true'],
    ['limit=0', '?limit=0'],
    ['a limit that is not a number', '?limit=ten'],
    ['a fractional limit', '?limit=2.5'],
    ['an unknown tag', '?tag=angry'],
    ['a tag in capitals', '?tag=Question'],
    ['a postId that is not an id', '?postId=post-1'],
  ])('refuses %s with 400 invalid_query', async (_name, query) => {
    const { status, body } = await world.list(key, query);
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 'invalid_query', message: expect.any(String) });
  });

  it("shows only the key's workspace", async () => {
    const { key: stranger } = await stack.workspace();
    expect((await world.list(stranger)).body.comments).toEqual([]);
  });

  it('needs the read scope', async () => {
    const { key: writeOnly } = await stack.workspace(['write']);
    const { status, body } = await world.list(writeOnly);
    expect(status).toBe(403);
    expect(body.error).toMatchObject({ code: 'insufficient_scope', details: { missing: ['read'] } });
  });
});

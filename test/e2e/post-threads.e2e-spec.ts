import { randomUUID } from 'node:crypto';
import { connect, headers, JSONCodec, NatsConnection } from 'nats';
import { EventEnvelope, Platform, Subjects } from '@app/contracts';
import { TEST_NATS_URL, until } from '@app/testing';
import { TestStack, tokenOf } from '../support/test-stack';

/**
 * `thread` and `autoSplit` (issue 15, items 3 to 5) through HTTP, the posts service, the publisher
 * and the platform sandbox. The sandbox records what each item replies to (parentId), as each
 * platform's reply field names it: X `reply.in_reply_to_tweet_id` ("Create Post",
 * https://docs.x.com/x-api/posts/create-post), Threads `reply_to_id` ("Publishing",
 * https://developers.facebook.com/documentation/threads/reference/publishing), Bluesky
 * `reply.root`/`reply.parent` strong refs ("Posts", https://docs.bsky.app/docs/advanced-guides/posts),
 * Mastodon `in_reply_to_id` (https://docs.joinmastodon.org/methods/statuses/#create); Facebook
 * comments by `POST /{object-id}/comments` (https://developers.facebook.com/docs/graph-api/reference/object/comments/).
 */
describe('POST /api/v1/posts with a thread', () => {
  const ACK_WAIT_MS = 1_000;
  let stack: TestStack;
  let nc: NatsConnection;
  let key: string;
  let workspaceId: string;
  let seq = 0;

  beforeAll(async () => {
    stack = await TestStack.start({ sandbox: true, overrides: { publisherAckWaitMs: ACK_WAIT_MS, publisherMaxDeliver: 3, publishWaitMs: 8_000 } });
    nc = await connect({ servers: TEST_NATS_URL });
    ({ key, workspaceId } = await stack.workspace());
  });
  afterAll(async () => {
    await nc.close();
    await stack.stop();
  });
  beforeEach(() => stack.sandbox!.control.clearFaults());

  const sandbox = () => stack.sandbox!.control;
  const image = (name: string) => `${stack.sandbox!.mediaUrl}/media/${name}.jpg?width=1200&height=800`;
  async function account(platform: Platform) {
    const handle = `@thread${platform}${++seq}`;
    const connected = await stack.connect(workspaceId, platform, handle);
    return { id: connected.id, platform, token: tokenOf(connected.handle), ref: `${platform}:${connected.handle}` };
  }
  const create = (body: Record<string, unknown>) => stack.request('POST', '/api/v1/posts', { key, body: { publishNow: true, ...body } });
  const detail = async (id: string) => (await stack.request('GET', `/api/v1/posts/${id}`, { key })).body.post;
  /** The account's replies on the platform, oldest first. */
  const replies = (token: string) => sandbox().published({ account: token, kind: 'comment' });
  /** Waits until the post view shows `count` recorded parts for the account, and answers the post. */
  async function partsRecorded(postId: string, accountId: string, count: number) {
    let post = await detail(postId);
    await until(async () => {
      post = await detail(postId);
      return (post.threadResults?.[accountId] ?? []).length >= count;
    }, 10_000);
    return post;
  }

  it.each<Platform>(['x', 'threads', 'bluesky', 'mastodon'])('%s: a reply chain, each part answering the one before it, media and alt text on a part', async (platform) => {
    const a = await account(platform);
    const response = await create({
      content: `Launch day on ${platform}`,
      accounts: [a.ref],
      thread: [{ content: 'Part two: what changed.' }, { content: 'Part three, with a chart.', mediaUrls: [image(`${platform}-chart`)], altText: ['Sign-ups by week'] }],
    });
    expect(response.status).toBe(201);
    const [post] = sandbox().published({ account: a.token, kind: 'post' });
    // The result stays the first part's: the post itself.
    expect(response.body.results).toEqual([expect.objectContaining({ accountId: a.id, success: true, postId: post.id })]);
    const view = await partsRecorded(response.body.post.id, a.id, 2);
    const [two, three] = replies(a.token);
    expect([two.text, two.parentId]).toEqual(['Part two: what changed.', post.id]);
    expect([three.text, three.parentId]).toEqual(['Part three, with a chart.', two.id]);
    expect(three.media.map((upload) => upload.altText)).toEqual(['Sign-ups by week']);
    expect(view.threadResults[a.id]).toEqual([
      { index: 0, status: 'posted', platformPostId: two.id, url: expect.stringMatching(/^https:\/\//) },
      { index: 1, status: 'posted', platformPostId: three.id, url: expect.stringMatching(/^https:\/\//) },
    ]);
    expect(view.thread).toEqual([{ content: 'Part two: what changed.', mediaUrls: [] }, { content: 'Part three, with a chart.', mediaUrls: [image(`${platform}-chart`)], altText: ['Sign-ups by week'] }]);
  });

  it('mastodon: every part keeps the post\'s platform options (a private thread stays private)', async () => {
    const a = await account('mastodon');
    const response = await create({
      content: 'For followers only.',
      accounts: [a.ref],
      platformOptions: { mastodon: { visibility: 'private', language: 'en' } },
      thread: [{ content: 'Part two, also for followers.' }],
    });
    expect(response.status).toBe(201);
    await partsRecorded(response.body.post.id, a.id, 1);
    const [post] = sandbox().published({ account: a.token, kind: 'post' });
    const [two] = replies(a.token);
    // "Post a new status" keeps visibility and language per status (https://docs.joinmastodon.org/methods/statuses/#create).
    expect(post.extra).toMatchObject({ visibility: 'private', language: 'en' });
    expect(two.extra).toMatchObject({ visibility: 'private', language: 'en' });
  });

  it('facebook (no reply chains): the post, then each part as a comment under it', async () => {
    const facebook = await account('facebook');
    const response = await create({ content: 'Launch day', accounts: [facebook.ref], thread: [{ content: 'More below.' }, { content: 'And the details.' }], firstComments: ['Ask us anything'] });
    expect(response.status).toBe(201);
    const [post] = sandbox().published({ account: facebook.token, kind: 'post' });
    await partsRecorded(response.body.post.id, facebook.id, 2);
    await until(() => replies(facebook.token).length === 3);
    // The thread first, then the first comments, all under the post.
    expect(replies(facebook.token).map((c) => [c.text, c.parentId])).toEqual([['More below.', post.id], ['And the details.', post.id], ['Ask us anything', post.id]]);
    // Delivered again once all is recorded: nothing is posted twice.
    await redeliver(response.body.post.id, 'PublishRequested');
    expect(replies(facebook.token)).toHaveLength(3);
    expect(sandbox().requestCount({ account: facebook.token, operation: 'comment' })).toBe(3);
  });

  it('autoSplit: over-long content becomes a numbered chain on X, counted by X\'s weighted length', async () => {
    const x = await account('x');
    const content = Array.from({ length: 12 }, (_, i) => `Sentence ${i + 1} of the launch notes, with enough words to weigh something.`).join(' ');
    const response = await create({ content, accounts: [x.ref], autoSplit: true });
    expect(response.status).toBe(201);
    const [post] = sandbox().published({ account: x.token, kind: 'post' });
    const total = Number(/ 1\/(\d+)$/.exec(post.text)?.[1]);
    expect(total).toBeGreaterThan(1);
    await until(() => replies(x.token).length === total - 1);
    const chain = [post, ...replies(x.token)];
    expect(chain.map((item) => item.text.match(/ (\d+)\/(\d+)$/)?.slice(1))).toEqual(chain.map((_, i) => [String(i + 1), String(total)]));
    expect(chain.slice(1).map((item) => item.parentId)).toEqual(chain.slice(0, -1).map((item) => item.id));
    expect(chain.map((item) => item.text.replace(/ \d+\/\d+$/, '')).join(' ')).toBe(content);
    await partsRecorded(response.body.post.id, x.id, total - 1);
  });

  it('refuses a part its platform would refuse, and too many parts, appending nothing', async () => {
    const x = await account('x');
    for (const [body, code, details] of [
      [{ thread: [{ content: 'fine' }, { content: 'y'.repeat(281) }] }, 'thread_part_not_publishable', { threadPart: 1, accountId: x.id, platform: 'x', reason: 'content_too_long' }],
      [{ thread: Array.from({ length: 26 }, () => ({ content: 'part' })) }, 'too_many_thread_parts', { parts: 26 }],
      [{ thread: [{ content: 'ok', mediaUrls: ['http://insecure.example/a.jpg'] }] }, 'invalid_media_url', { threadPart: 0 }],
      // A field a part does not take is refused by its path (the part's content is then missing too: the unknown field is what is reported).
      [{ thread: [{ text: 'no content field' }] }, 'unknown_field', { field: 'thread[0].text', allowed: ['content', 'mediaUrls', 'altText'] }],
      [{ thread: [{ content: 42 }] }, 'invalid_body', undefined],
    ] as const) {
      const response = await create({ content: 'Launch', accounts: [x.ref], ...body });
      expect({ status: response.status, code: response.body.error.code }).toEqual({ status: 400, code });
      if (details) expect(response.body.error.details).toMatchObject(details);
    }
    // Other tests' publications may still be appending: no event names this test's account.
    const { rows } = await stack.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE data::text LIKE '%' || $1 || '%'`, [x.id]);
    expect(rows[0].n).toBe(0);
    expect(sandbox().requestCount({ account: x.token })).toBe(0);
  });

  it('PATCH replaces the thread and sets autoSplit, checked as a create; a refused edit appends nothing', async () => {
    const x = await account('x');
    const draft = await stack.request('POST', '/api/v1/posts', { key, body: { content: 'Draft', accounts: [x.ref], thread: [{ content: 'old part' }] } });
    const id = draft.body.post.id;
    const edited = await stack.request('PATCH', `/api/v1/posts/${id}`, { key, body: { thread: [{ content: 'new part' }, { content: 'another' }], autoSplit: true } });
    expect(edited.status).toBe(200);
    expect(await detail(id)).toMatchObject({ thread: [{ content: 'new part', mediaUrls: [] }, { content: 'another', mediaUrls: [] }], autoSplit: true });
    const before = (await detail(id)).version;
    const refused = await stack.request('PATCH', `/api/v1/posts/${id}`, { key, body: { thread: [{ content: 'z'.repeat(281) }] } });
    expect({ status: refused.status, code: refused.body.error.code, details: refused.body.error.details }).toEqual({
      status: 400, code: 'thread_part_not_publishable', details: { threadPart: 0, accountId: x.id, platform: 'x', reason: 'content_too_long' },
    });
    expect((await detail(id)).version).toBe(before);
    const { rows } = await stack.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM events WHERE stream_id = $1', [`post-${id}`]);
    expect(rows[0].n).toBe(2);
    expect((await stack.request('PATCH', `/api/v1/posts/${id}`, { key, body: { thread: [] } })).status).toBe(200);
    expect(await detail(id)).not.toHaveProperty('thread');
  });

  it('a part that fails stops the thread; a redelivery repeats and skips nothing; a retry resumes after the last posted part', async () => {
    const mastodon = await account('mastodon');
    // The part with media fails at its upload (once): parts one and three are text, so only part two meets it.
    sandbox().addFault({ platform: 'mastodon', account: mastodon.token, operation: 'upload', fault: { type: 'error', status: 422, message: 'Validation failed: File could not be processed' } });
    const response = await create({
      content: 'Resumable thread',
      accounts: [mastodon.ref],
      thread: [{ content: 'One.' }, { content: 'Two, with a photo.', mediaUrls: [image('resume')] }, { content: 'Three.' }],
    });
    const postId = response.body.post.id;
    const stopped = await partsRecorded(postId, mastodon.id, 2);
    expect(stopped.status).toBe('published');
    expect(stopped.threadResults[mastodon.id]).toEqual([
      { index: 0, status: 'posted', platformPostId: replies(mastodon.token)[0].id, url: expect.stringContaining(replies(mastodon.token)[0].id) },
      { index: 1, status: 'failed', error: expect.objectContaining({ code: expect.any(String) }) },
    ]);
    expect(replies(mastodon.token).map((c) => c.text)).toEqual(['One.']);

    // The same PublishRequested delivered again (a crash after part one was recorded): nothing posted again, nothing past the gap.
    await redeliver(postId, 'PublishRequested');
    expect(replies(mastodon.token).map((c) => c.text)).toEqual(['One.']);
    expect(sandbox().requestCount({ account: mastodon.token, operation: 'publish' })).toBe(1);

    const retried = await stack.request('POST', `/api/v1/posts/${postId}/retry`, { key });
    expect(retried.status).toBe(201);
    const resumed = await partsRecorded(postId, mastodon.id, 3);
    await until(async () => (await detail(postId)).threadResults[mastodon.id].every((p: { status: string }) => p.status === 'posted'));
    const [one, two, three] = replies(mastodon.token);
    const [post] = sandbox().published({ account: mastodon.token, kind: 'post' });
    expect([one, two, three].map((c) => [c.text, c.parentId])).toEqual([['One.', post.id], ['Two, with a photo.', one.id], ['Three.', two.id]]);
    expect(two.media).toHaveLength(1);
    expect(replies(mastodon.token)).toHaveLength(3);
    // The live post is not published again; its result is unchanged.
    expect(sandbox().requestCount({ account: mastodon.token, operation: 'publish' })).toBe(1);
    expect(resumed.results).toEqual([expect.objectContaining({ success: true, postId: post.id })]);
    expect((await detail(postId)).threadResults[mastodon.id].map((p: { platformPostId: string }) => p.platformPostId)).toEqual([one.id, two.id, three.id]);
  });

  it('a publisher stopped during a part\'s call: redelivered, it never sends that part again; a retry resends it under the same Idempotency-Key', async () => {
    const mastodon = await account('mastodon');
    // The platform holds the first part's call until the publisher has stopped: it outlasts the one ack wait of grace a
    // stopping publisher gives its running job however slowly the machine runs (a latency would race the stop).
    const hold = sandbox().addFault({ platform: 'mastodon', account: mastodon.token, operation: 'comment', times: 1, fault: { type: 'hold' } });
    const response = await create({ content: 'Interrupted thread', accounts: [mastodon.ref], thread: [{ content: 'One.' }, { content: 'Two.' }, { content: 'Three.' }] });
    const postId = response.body.post.id;
    await until(() => sandbox().requestCount({ account: mastodon.token, operation: 'comment' }) === 1);
    await stack.stopApp('publisher');
    // Only now does the platform make it and answer: to a publisher that can no longer record the answer.
    sandbox().removeFault(hold.id);
    await stack.startApp('publisher');
    const inDoubt = await partsRecorded(postId, mastodon.id, 1);
    expect(inDoubt.threadResults[mastodon.id]).toEqual([{ index: 0, status: 'failed', error: expect.objectContaining({ code: 'outcome_unknown' }) }]);
    // Its call was made once, and nothing after it was sent.
    expect(sandbox().requestCount({ account: mastodon.token, operation: 'comment' })).toBe(1);
    expect(replies(mastodon.token).map((c) => c.text)).toEqual(['One.']);

    expect((await stack.request('POST', `/api/v1/posts/${postId}/retry`, { key })).status).toBe(201);
    await until(async () => ((await detail(postId)).threadResults[mastodon.id] ?? []).filter((p: { status: string }) => p.status === 'posted').length === 3);
    // Mastodon answered the resent part with the status it had made (Idempotency-Key): no duplicate.
    const [post] = sandbox().published({ account: mastodon.token, kind: 'post' });
    const [one, two, three] = replies(mastodon.token);
    expect([one, two, three].map((c) => [c.text, c.parentId])).toEqual([['One.', post.id], ['Two.', one.id], ['Three.', two.id]]);
    expect(replies(mastodon.token)).toHaveLength(3);
  });

  it('a publisher stopped during a first comment\'s call: redelivered, it never sends that comment again (outcome_unknown) and skips the later ones', async () => {
    const mastodon = await account('mastodon');
    // First comments share the parts' start boundary (FirstCommentStarted before the call). The platform holds the
    // call until the publisher has stopped, so the stopping publisher never sees its answer.
    const hold = sandbox().addFault({ platform: 'mastodon', account: mastodon.token, operation: 'comment', times: 1, fault: { type: 'hold' } });
    const response = await create({ content: 'Interrupted first comments', accounts: [mastodon.ref], firstComments: ['First.', 'Second.'] });
    const postId = response.body.post.id;
    await until(() => sandbox().requestCount({ account: mastodon.token, operation: 'comment' }) === 1);
    await stack.stopApp('publisher');
    // Only now does the platform make it and answer: to a publisher that can no longer record the answer.
    sandbox().removeFault(hold.id);
    await stack.startApp('publisher');
    await until(async () => (await firstCommentEvents(postId)).length === 3, 10_000);
    expect(await firstCommentEvents(postId)).toEqual([
      { type: 'FirstCommentStarted', index: 0, code: undefined },
      { type: 'FirstCommentFailed', index: 0, code: 'outcome_unknown' },
      { type: 'FirstCommentFailed', index: 1, code: 'first_comment_skipped' },
    ]);
    // Its call was made once (the held answer still created it), and nothing after it was sent, even on one more delivery.
    await redeliver(postId, 'PublishRequested');
    expect(sandbox().requestCount({ account: mastodon.token, operation: 'comment' })).toBe(1);
    expect(replies(mastodon.token).map((c) => c.text)).toEqual(['First.']);
    expect(await firstCommentEvents(postId)).toHaveLength(3);
  });

  /** The post's first comment events, in order: type, index and (for a failure) its code. */
  async function firstCommentEvents(postId: string): Promise<Array<{ type: string; index: number; code: string | undefined }>> {
    const { rows } = await stack.db.pool.query<{ type: string; data: { index: number; error?: { code: string } } }>(
      "SELECT type, data FROM events WHERE stream_id = $1 AND type LIKE 'FirstComment%' ORDER BY stream_position",
      [`post-${postId}`],
    );
    return rows.map((row) => ({ type: row.type, index: row.data.index, code: row.data.error?.code }));
  }

  /**
   * Delivers the post's latest event of `type` to the publisher once more (as JetStream redelivers an
   * unacknowledged message), and waits until the publisher's consumer has acknowledged it.
   */
  async function redeliver(postId: string, type: string): Promise<void> {
    const { rows } = await stack.db.pool.query<{ data: unknown }>('SELECT data FROM events WHERE stream_id = $1 AND type = $2 ORDER BY stream_position DESC LIMIT 1', [`post-${postId}`, type]);
    const subjects = new Subjects(stack.config.natsNamespace);
    const envelope: EventEnvelope = {
      eventId: randomUUID(), type, version: 1, streamId: `post-${postId}`, revision: '1', position: '1:1', occurredAt: new Date().toISOString(), workspaceId, data: rows[0].data,
    };
    const h = headers();
    h.set('Nats-Msg-Id', envelope.eventId);
    const ack = await nc.jetstream().publish(`${subjects.eventRoot}.posts.${type}`, JSONCodec().encode(envelope), { headers: h });
    const jsm = await nc.jetstreamManager();
    await until(async () => (await jsm.consumers.info(subjects.eventStreamName, 'publisher')).ack_floor.stream_seq >= ack.seq, 10_000);
  }
});

import { randomUUID } from 'node:crypto';
import { connect, JSONCodec, NatsConnection } from 'nats';
import { classifierVersion, classifyComment } from '@app/classification';
import { CommentListItem, commentStreamId, EventEnvelope, Subjects } from '@app/contracts';
import { PostgresEventStore } from '@app/event-store';
import { TEST_NATS_URL, until } from '@app/testing';
import { TestStack } from '../../../../test/support/test-stack';
import { commentDecider } from '../domain/comment.decider';
import { CommentCommandRunner } from '../domain/comment-command-runner';
import { toNewCommentEvents } from '../domain/comment-stream';
import { CommentReclassification } from './comment-reclassification';

/**
 * `npm run reclassify` against the running service (real PostgreSQL and NATS): a comment an earlier
 * classifier read otherwise gets CommentReclassified, on NATS and in the list; its receipt stays as it was.
 */
describe('CommentReclassification', () => {
  let stack: TestStack;
  let nc: NatsConnection;
  let store: PostgresEventStore;
  let reclassification: CommentReclassification;
  let key: string;
  let workspaceId: string;

  beforeAll(async () => {
    stack = await TestStack.start({ apps: ['projector', 'gateway'] });
    nc = await connect({ servers: TEST_NATS_URL });
    store = new PostgresEventStore(stack.db.pool, { databaseUrl: stack.db.url });
    reclassification = new CommentReclassification(stack.db.pool, new CommentCommandRunner(store, stack.config));
    ({ key, workspaceId } = await stack.workspace(['read']));
  });
  afterAll(async () => {
    await nc?.close();
    await stack?.stop();
  });

  /** A comment stored as ingestion would have, with the reading given (an earlier classifier's). */
  async function stored(text: string, reading: { sentiment: 'positive' | 'negative' | 'neutral'; tags: string[] }): Promise<string> {
    const commentId = randomUUID();
    const comment = {
      commentId,
      workspaceId,
      platform: 'facebook' as const,
      platformCommentId: `fb_${commentId}`,
      platformPostId: 'page_1',
      postId: randomUUID(),
      accountId: randomUUID(),
      author: 'fan',
      text,
      url: null,
      postTitle: 'Launch day',
      commentedAt: '2026-11-20T10:00:00.000Z',
      parentCommentId: null,
      ...reading,
    };
    const events = commentDecider.decide({ type: 'ReceiveComment', comment, now: new Date() }, commentDecider.initialState());
    await store.append(commentStreamId(commentId), toNewCommentEvents(events, workspaceId, undefined), 'no_stream');
    return commentId;
  }

  const listed = async (): Promise<CommentListItem[]> => (await stack.request('GET', '/api/v1/comments?limit=50', { key })).body.comments;

  it('appends CommentReclassified only where the reading changed, publishes it, updates the list, and appends nothing when run again', async () => {
    const complaint = 'This broke everything, awful.';
    const praise = 'Love it, thank you so much!';
    // The earlier classifier read the complaint as praise; the praise it read as the current one does.
    const stale = await stored(complaint, { sentiment: 'positive', tags: ['praise'] });
    const current = await stored(praise, classifyComment(praise));
    await until(async () => (await listed()).length === 2);

    const published: EventEnvelope[] = [];
    const subscription = nc.subscribe(new Subjects(stack.config.natsNamespace).event('comment-x', 'CommentReclassified'), {
      callback: (_error, message) => published.push(JSONCodec<EventEnvelope>().decode(message.data)),
    });
    await nc.flush();

    const version = classifierVersion();
    const first = await reclassification.run({ classifierVersion: version });
    expect(first).toEqual({ scanned: 2, reclassified: 1, unchanged: 1, lastCommentId: [stale, current].sort()[1] });

    const reading = classifyComment(complaint);
    const [receipt, reclassified] = await store.readStream(commentStreamId(stale));
    expect(receipt.data).toMatchObject({ text: complaint, sentiment: 'positive', tags: ['praise'] });
    expect(reclassified).toMatchObject({ type: 'CommentReclassified', data: { commentId: stale, sentiment: reading.sentiment, tags: reading.tags, classifierVersion: version } });
    expect((await store.readStream(commentStreamId(current))).map((e) => e.type)).toEqual(['CommentReceived']);

    await until(() => published.length === 1);
    expect(published[0]).toMatchObject({ type: 'CommentReclassified', streamId: commentStreamId(stale), workspaceId });
    await until(async () => (await listed()).some((c) => c.text === complaint && c.sentiment === reading.sentiment));
    expect((await listed()).find((c) => c.text === complaint)).toMatchObject({ sentiment: reading.sentiment, tags: reading.tags });

    const events = await stack.eventCount();
    expect(await reclassification.run({ classifierVersion: version })).toMatchObject({ scanned: 2, reclassified: 0, unchanged: 2 });
    expect(await stack.eventCount()).toBe(events);
    subscription.unsubscribe();
  });

  it('resumes after the last comment a run reported', async () => {
    const { rows } = await stack.db.pool.query<{ id: string }>('SELECT id FROM comment_views ORDER BY id LIMIT 1');
    const progress: number[] = [];
    const resumed = await reclassification.run({ classifierVersion: classifierVersion(), after: rows[0].id, batchSize: 1, onProgress: (p) => progress.push(p.scanned) });
    expect(resumed).toMatchObject({ scanned: 1, reclassified: 0 });
    expect(progress).toEqual([1]);
  });
});

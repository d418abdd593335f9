import { Platform } from '@app/contracts';
import { incomingComment, ingestionOnTestDatabase, IngestionOnTestDatabase, publishedItem } from './ingestion.test-support';
import { PublishedItem, PublishedItems } from './published-items';
import { WebhookCommentsHandler } from './webhook-comments.handler';

/** Concurrent webhooks ingested together (one look-up per round), each answered with its own count, on the real event store. */
describe('WebhookCommentsHandler (concurrent deliveries ingested together)', () => {
  let bench: IngestionOnTestDatabase;
  /** The item the webhooks name, as the read model would give it, counting the look-ups. */
  const itemsWith = (on: PublishedItem, fail = false) => {
    const lookups: string[] = [];
    const items = {
      withPlatformId: async (platform: Platform, platformPostId: string) => {
        lookups.push(`${platform} ${platformPostId}`);
        if (fail) throw new Error('connection terminated');
        return platformPostId === on.platformPostId ? [on] : [];
      },
    } as unknown as PublishedItems;
    return { handler: new WebhookCommentsHandler(items, bench.ingestion), lookups };
  };

  beforeAll(async () => {
    bench = await ingestionOnTestDatabase();
  });
  afterAll(() => bench.db.drop());

  it('answers each of 30 concurrent webhooks with its own count after one look-up, each event carrying its own request id', async () => {
    const on = publishedItem();
    const { handler, lookups } = itemsWith(on);
    const deliveries = [
      ...Array.from({ length: 27 }, (_, i) => [incomingComment(`wh${i}`)]),
      [incomingComment('wh0')], // the same comment again (Meta retried): stored once
      [incomingComment('own-first-comment')], // the workspace's own words
      [incomingComment('elsewhere')],
    ];
    const answers = await Promise.all(
      deliveries.map((comments, i) =>
        handler.handle({ platform: 'facebook', platformPostId: i === 29 ? 'page_not_ours' : on.platformPostId, comments }, `request-${i}`),
      ),
    );

    expect(lookups.sort()).toEqual([`facebook ${on.platformPostId}`, 'facebook page_not_ours']);
    expect(answers.slice(1, 27)).toEqual(Array.from({ length: 26 }, () => ({ received: 1 })));
    expect(answers[0].received + answers[27].received).toBe(1);
    expect(answers.slice(28)).toEqual([{ received: 0 }, { received: 0 }]);
    const [first] = await bench.streamOf(on, 'wh5');
    expect(first).toMatchObject({ type: 'CommentReceived', metadata: { requestId: 'request-5' } });
    expect((await bench.streamOf(on, 'wh0')).map((e) => e.type)).toEqual(['CommentReceived']);
    expect(await bench.streamOf(on, 'own-first-comment')).toEqual([]);
  });

  it('fails every delivery of a round whose look-up failed, and appends nothing for them', async () => {
    const on = publishedItem();
    const { handler } = itemsWith(on, true);
    const answers = await Promise.allSettled([incomingComment('x1'), incomingComment('x2')].map((c) => handler.handle({ platform: 'facebook', platformPostId: on.platformPostId, comments: [c] }, undefined)));
    expect(answers.map((a) => a.status)).toEqual(['rejected', 'rejected']);
    expect(await bench.streamOf(on, 'x1')).toEqual([]);
    expect(await bench.streamOf(on, 'x2')).toEqual([]);
  });

  it('ignores a platform it does not know', async () => {
    const on = publishedItem();
    const { handler, lookups } = itemsWith(on);
    expect(await handler.handle({ platform: 'myspace', platformPostId: on.platformPostId, comments: [incomingComment('m1')] }, undefined)).toEqual({ received: 0 });
    expect(lookups).toEqual([]);
  });
});

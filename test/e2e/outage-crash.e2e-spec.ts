import { NatsConnection } from 'nats';
import { Subjects } from '@app/contracts';
import { NATS_CONNECTION } from '@app/messaging';
import { until } from '@app/testing';
import { isHealthy, verifyProjections, describeReport } from '../../apps/projector/src/verify/verify-projections';
import { usePrivateInfraStack } from '../support/private-infra-stack';
import { NO_RATE_LIMIT, createPostsWithoutPause, relayedEventIds, storedEventIds, untilAllReady } from '../support/outage-traffic';

/**
 * The projector process (it runs both feed followers: the post_views projection and the relay
 * to JetStream) killed as kill -9 would, twice, each time in the middle of a backlog it is
 * working through: the relay has published part of its batch but not saved its checkpoint, the
 * projection's batch transaction is cut. Restarted, each follower replays from its checkpoint;
 * the relay's repeats carry the same Nats-Msg-Id (the event id) and are dropped by JetStream.
 */
const BACKLOG_POSTS = 80;
const KILLS = 2;

describe('the projector and the relay killed mid-batch', () => {
  // The gateway answers a create once the read model shows it, or after PROJECTION_WAIT_MS: short, as the projector is down a while.
  // Small feed batches: the relay pipelines a batch's publishes, so a kill can only land inside the
  // backlog when the backlog spans several batches.
  const env = usePrivateInfraStack({ overrides: { projectionWaitMs: 100, feedBatchSize: 10, ...NO_RATE_LIMIT } });
  let nc: NatsConnection;
  let stream: string;
  let eventRoot: string;

  beforeAll(() => {
    // The gateway's connection reads the stream (the projector's own dies with it).
    nc = env.stack.app('gateway').get<NatsConnection>(NATS_CONNECTION);
    stream = env.stack.app('gateway').get(Subjects).eventStreamName;
    eventRoot = env.stack.app('gateway').get(Subjects).eventRoot;
  });

  const relayedCount = async () => (await (await nc.jetstreamManager()).streams.info(stream)).state.messages;

  /**
   * Resolves the moment the relay publishes an event the stream does not hold yet (`known`: what it
   * holds): a core subscription hears each publish as it happens, the repeats of a replay from a lagging
   * checkpoint too, which the stream drops. Polling the stream's count instead let the whole backlog
   * through between two looks.
   */
  const nextNewlyRelayed = (known: ReadonlySet<string>): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the relay published nothing new in 10 s')), 10_000);
      const subscription = nc.subscribe(`${eventRoot}.>`, {
        callback: (_error, message) => {
          if (known.has((message.json() as { eventId: string }).eventId)) return;
          clearTimeout(timer);
          subscription.unsubscribe();
          resolve();
        },
      });
    });

  it('relays no event twice, skips none, and the read model completes after the restarts', async () => {
    const { workspaceId, key } = await env.stack.workspace();
    const account = await env.stack.connect(workspaceId, 'x', '@crash');

    for (let kill = 1; kill <= KILLS; kill++) {
      // A backlog of drafts (nothing else appends events afterwards) builds while the projector is down (the posts service keeps appending events).
      await env.stack.stopApp('projector');
      const before = (await storedEventIds(env.stack)).length;
      const traffic = createPostsWithoutPause(env.stack, key, [account.id], { concurrency: 4, publishing: false });
      await until(async () => (await storedEventIds(env.stack)).length >= before + BACKLOG_POSTS, 30_000);
      const answers = await traffic.stop();
      // 201, or 202 with the id and Location (recorded, not readable yet) while no projector runs: never an error.
      expect(answers.filter((answer) => answer.status !== 201 && !(answer.status === 202 && answer.postId))).toEqual([]);
      const stored = (await storedEventIds(env.stack)).length;

      // Started again, it works through the backlog batch by batch; killed as soon as it relays the first event of it.
      const relayed = nextNewlyRelayed(new Set(await relayedEventIds(nc, stream)));
      // The server knows of the subscription before the projector starts.
      await nc.flush();
      await env.stack.startApp('projector');
      await relayed;
      await env.stack.killApp('projector');
      const relayedAtKill = await relayedCount();
      // Mid-batch: part of the backlog was relayed, not all of it.
      expect(relayedAtKill).toBeLessThan(stored);
    }

    // Restarted once more, with nobody's help: it catches up.
    await env.stack.startApp('projector');
    await untilAllReady(env.stack, ['projector', 'gateway']);
    const stored = await storedEventIds(env.stack);
    await until(async () => (await relayedCount()) >= stored.length, 20_000);

    // Every stored event on the stream exactly once: no event relayed twice under any id, none missing.
    const relayed = await relayedEventIds(nc, stream);
    expect(relayed.length).toBe(new Set(relayed).size);
    expect(new Set(relayed)).toEqual(new Set(stored));

    // The read model is complete and matches a fresh fold of every stream.
    const postStreams = await env.stack.db.pool.query<{ count: string }>("SELECT count(DISTINCT stream_id) FROM events WHERE type = 'PostCreated'");
    await until(async () => {
      const { rows } = await env.stack.db.pool.query<{ count: string }>('SELECT count(*) FROM post_views');
      return rows[0].count === postStreams.rows[0].count;
    }, 20_000);
    const report = await verifyProjections({ pool: env.stack.db.pool, databaseUrl: env.stack.db.url });
    expect({ healthy: isHealthy(report), report: describeReport(report) }).toMatchObject({ healthy: true });
    expect(report.views.find((view) => view.view === 'post_views')?.rowsChecked).toBe(Number(postStreams.rows[0].count));
  }, 80_000);
});

import { randomUUID } from 'node:crypto';
import { until } from '@app/testing';
import { usePrivateInfraStack } from '../support/private-infra-stack';

const COMMAND_TIMEOUT_MS = 3_000;

/**
 * NATS killed after the posts service received an account's start and before its answer reached
 * the publisher (README, Reliability), against a nats-server of this test's own. The moment is
 * made exact: the start's append is held on a row this test inserts at the stream position it
 * takes (the unique stream position makes it wait), NATS is killed, the row rolled back, so the
 * start is recorded while no answer can travel. NATS stays down longer than the command timeout,
 * so the publisher's first try times out; the same handler run asks again with its delivery id
 * and is told `started`: the post is sent once, not looked up and reported outcome_unknown.
 */
describe('an account start whose answer NATS lost', () => {
  // An ack wait past the outage: no second delivery races the run that lost the answer.
  const env = usePrivateInfraStack({ sandbox: true, overrides: { publisherAckWaitMs: 20_000, publishWaitMs: 200, commandTimeoutMs: COMMAND_TIMEOUT_MS } });

  it('is asked again by the same run, told started, and published once (not reconciled, not outcome_unknown)', async () => {
    const { workspaceId, key } = await env.stack.workspace();
    const account = await env.stack.connect(workspaceId, 'mastodon', '@lost_start');
    // The publisher is away while the post is requested: its PublishRequested waits in JetStream.
    await env.stack.stopApp('publisher');
    const created = await env.stack.request('POST', '/api/v1/posts', { key, body: { content: 'answer lost with NATS', accounts: [account.id], publishNow: true } });
    expect(created.status).toBe(202);
    const streamId = `post-${created.body.post.id}`;

    const blocker = await env.stack.db.pool.connect();
    try {
      await blocker.query('BEGIN');
      const { rows } = await blocker.query<{ next: string }>('SELECT max(stream_position) + 1 AS next FROM events WHERE stream_id = $1', [streamId]);
      await blocker.query(
        `INSERT INTO events (event_id, stream_id, stream_position, type, data, metadata) VALUES ($1, $2, $3, 'Blocker', '{}', '{"workspaceId":"w","version":1}')`,
        [randomUUID(), streamId, rows[0].next],
      );
      await env.stack.startApp('publisher');
      // The start's append waits on the row above.
      await until(async () => {
        const waiting = await env.stack.db.pool.query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%INSERT INTO events%'`);
        return waiting.rowCount! > 0;
      }, 10_000);
      await env.infra.nats.kill();
      await blocker.query('ROLLBACK');
    } finally {
      blocker.release();
    }
    await until(async () => (await env.stack.db.pool.query(`SELECT 1 FROM events WHERE stream_id = $1 AND type = 'AccountPublishStarted'`, [streamId])).rowCount === 1, 5_000);
    // Down past the publisher's first try (one command timeout).
    await new Promise((r) => setTimeout(r, COMMAND_TIMEOUT_MS + 1_000));
    await env.infra.nats.start();

    await until(async () => (await env.stack.db.pool.query(`SELECT 1 FROM events WHERE stream_id = $1 AND type = 'PublishCompleted'`, [streamId])).rowCount === 1, 20_000);
    const outcome = await env.stack.db.pool.query<{ type: string; data: { reconciled?: boolean } }>(
      `SELECT type, data FROM events WHERE stream_id = $1 AND type IN ('AccountPublished', 'AccountPublishFailed')`,
      [streamId],
    );
    expect(outcome.rows).toEqual([{ type: 'AccountPublished', data: expect.objectContaining({ reconciled: false }) }]);
    expect(env.stack.sandbox!.control.published({ platform: 'mastodon', kind: 'post' }).filter((item) => item.text === 'answer lost with NATS')).toHaveLength(1);
  }, 60_000);
});

import { Pool, PoolClient } from 'pg';
import { CheckpointStore, formatPosition, GlobalPosition, PostgresEventStore, RecordedEvent, START } from '@app/event-store';
import { inTransaction } from '@app/database';
import { notifyProjectionAdvanced } from '@app/read-models';
import { LIVE_TARGET, projectBatch, REBUILD_TARGET } from './projection-target';
import { RebuildSession } from './rebuild-session';
import { createRebuildIndexes, createRebuildTable, dropOldTable, switchTable, TablePair } from './rebuild-tables';

export interface RebuildOptions {
  pool: Pool;
  databaseUrl: string;
  /** Events per transaction while replaying. */
  batchSize?: number;
  log?: (line: string) => void;
}

export interface RebuildReport {
  /** Events replayed before the live projector was paused, and how long that took. */
  replayed: number;
  replaySeconds: number;
  /** Events replayed while the live projector was paused (written meanwhile), and how long it stayed paused. */
  caughtUp: number;
  pausedSeconds: number;
  /** Live leader sessions ended to take the projection's leadership (0 when no projector was running). */
  leadersEnded: number;
  position: string;
}

const TABLES: TablePair[] = [
  { live: LIVE_TARGET.postViews, rebuild: REBUILD_TARGET.postViews },
  { live: LIVE_TARGET.commentViews, rebuild: REBUILD_TARGET.commentViews },
  { live: LIVE_TARGET.postDeletions, rebuild: REBUILD_TARGET.postDeletions },
];

/** Lock waits and deadlocks with a projector batch still in flight: the switch is tried again. */
const SWITCH_RETRYABLE = new Set(['40P01', '55P03']);
const SWITCH_ATTEMPTS = 5;

/**
 * Rebuilds the read models from the whole event feed without downtime: replays
 * it into fresh tables (its own checkpoint), pauses the live projector by
 * taking its leadership, catches up the events written meanwhile, then swaps
 * the tables and hands the rebuild's checkpoint to the live projector — all in
 * one transaction, so readers see the old tables or the new, never none.
 */
export async function rebuildProjections(options: RebuildOptions): Promise<RebuildReport> {
  const { pool, databaseUrl } = options;
  const log = options.log ?? (() => undefined);
  const batchSize = options.batchSize ?? 5000;
  const session = await RebuildSession.open(databaseUrl, LIVE_TARGET.checkpoint);
  try {
    const store = new PostgresEventStore(pool, { databaseUrl });
    const checkpoints = new CheckpointStore(pool);
    for (const pair of TABLES) await createRebuildTable(pool, pair);
    await pool.query('DELETE FROM checkpoints WHERE name = $1', [REBUILD_TARGET.checkpoint]);

    let started = Date.now();
    const bulk = await replay(pool, store, checkpoints, START, batchSize);
    const replaySeconds = (Date.now() - started) / 1000;
    log(`replayed ${bulk.events} events in ${replaySeconds.toFixed(1)} s`);
    for (const pair of TABLES) await createRebuildIndexes(pool, pair);
    // Whatever was written while the indexes were built, before the live projector pauses.
    const before = await replay(pool, store, checkpoints, bulk.position, batchSize);

    started = Date.now();
    const leadersEnded = await session.takeLeadership(LIVE_TARGET.checkpoint);
    const last = await replay(pool, store, checkpoints, before.position, batchSize);
    await withRetries(() => inTransaction(pool, (client) => switchTables(client)));
    const pausedSeconds = (Date.now() - started) / 1000;
    log(`switched after catching up ${before.events + last.events} events; the live projector was paused ${pausedSeconds.toFixed(2)} s`);
    for (const pair of TABLES) await dropOldTable(pool, pair);
    return { replayed: bulk.events + before.events, replaySeconds, caughtUp: last.events, pausedSeconds, leadersEnded, position: formatPosition(last.position) };
  } finally {
    await session.close();
  }
}

/**
 * Replays the feed after `from` into the rebuild tables until it is caught
 * up, one transaction per batch with the rebuild's checkpoint; the next batch
 * is read while this one is written.
 */
async function replay(pool: Pool, store: PostgresEventStore, checkpoints: CheckpointStore, from: GlobalPosition, batchSize: number) {
  let position = from;
  let events = 0;
  const read = (after: GlobalPosition) => {
    const pending = store.readAll(after, batchSize);
    pending.catch(() => undefined); // awaited below; a failing write must not leave it unobserved
    return pending;
  };
  let next = read(position);
  for (;;) {
    const batch: RecordedEvent[] = await next;
    if (batch.length === 0) return { position, events };
    position = batch[batch.length - 1].position;
    next = read(position);
    await inTransaction(pool, async (client) => {
      // The checkpoint commits with the rows; losing the last batches to a crash only means replaying them.
      await client.query('SET LOCAL synchronous_commit = off');
      await projectBatch(client, batch, REBUILD_TARGET, (streamId) => store.readStream(streamId));
      await checkpoints.save(REBUILD_TARGET.checkpoint, position, client);
    });
    events += batch.length;
  }
}

async function switchTables(client: PoolClient): Promise<void> {
  // Readers queue behind the renames' locks: never let them wait long for one.
  await client.query(`SET LOCAL lock_timeout = '2s'`);
  for (const pair of TABLES) await switchTable(client, pair);
  const { rows } = await client.query<{ position: string }>(
    `INSERT INTO checkpoints (name, position) SELECT $1, position FROM checkpoints WHERE name = $2
     ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position, updated_at = now()
     RETURNING position`,
    [LIVE_TARGET.checkpoint, REBUILD_TARGET.checkpoint],
  );
  await client.query('DELETE FROM checkpoints WHERE name = $1', [REBUILD_TARGET.checkpoint]);
  // Read-your-writes waiters follow the live checkpoint: tell them where it is now.
  if (rows[0]) await notifyProjectionAdvanced(client, LIVE_TARGET.checkpoint, rows[0].position);
}

async function withRetries(attempt: () => Promise<void>): Promise<void> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (i >= SWITCH_ATTEMPTS || !SWITCH_RETRYABLE.has((error as { code?: string }).code ?? '')) throw error;
    }
  }
}

import { Pool, PoolClient } from 'pg';
import { CheckpointStore, formatPosition, GlobalPosition, PostgresEventStore, RecordedEvent, START } from '@app/event-store';
import { inTransaction } from '@app/database';
import { notifyProjectionAdvanced } from '@app/read-models';
import { ReadModel, renamedTables, Tables } from '../read-model';
import { READ_MODELS, readModelNamed } from '../read-models';
import { READ_MODELS_FOLLOWER } from '../read-models-follower';
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
  /** The read model rebuilt. */
  readModel: string;
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

/** Where a rebuild of one read model writes: fresh tables beside the live ones, and a checkpoint of its own. */
interface RebuildTarget {
  model: ReadModel;
  tables: Tables<string>;
  pairs: TablePair[];
  checkpoint: string;
}

function rebuildTarget(model: ReadModel): RebuildTarget {
  const tables = renamedTables(model.tables, (live) => `${live}_rebuild`);
  const pairs = Object.keys(model.tables).map((role) => ({ live: model.tables[role], rebuild: tables[role] }));
  return { model, tables, pairs, checkpoint: `${model.name}_rebuild` };
}

/** Lock waits and deadlocks with a projector batch still in flight: the switch is tried again. */
const SWITCH_RETRYABLE = new Set(['40P01', '55P03']);
const SWITCH_ATTEMPTS = 5;

/**
 * Rebuilds the read models named (every one when `only` is absent), side by
 * side: each rebuild replays the feed into its own model's tables and
 * checkpoint only. One live follower keeps every model, so it is paused once,
 * when every rebuild has replayed what was stored (only the catch-up and the
 * switches wait on it), and stays paused until the run ends. An unknown name
 * is refused before anything is rebuilt; a failed rebuild fails the run once
 * the others have ended (their switches stand).
 */
export async function rebuildProjections(options: RebuildOptions & { only?: string[] }): Promise<RebuildReport[]> {
  const models = options.only ? options.only.map(readModelNamed) : READ_MODELS;
  // Taken one by one in the models' order: of two runs, the first to lock the first model runs, the other is refused whole.
  const sessions: RebuildSession[] = [];
  try {
    for (const model of models) sessions.push(await RebuildSession.open(options.databaseUrl, model.name));
    const replays = await Promise.allSettled(models.map((model) => replayBesideLive(options, model)));
    const ready = replays.filter((o): o is PromiseFulfilledResult<Replayed> => o.status === 'fulfilled').map((o) => o.value);
    const pause = ready.length > 0 ? { started: Date.now(), leadersEnded: await sessions[0].takeLeadership(READ_MODELS_FOLLOWER) } : null;
    const switches = pause ? await Promise.allSettled(ready.map((replayed) => catchUpAndSwitch(options, replayed, pause))) : [];
    const failed = [...replays, ...switches].find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) throw failed.reason;
    return switches.map((o) => (o as PromiseFulfilledResult<RebuildReport>).value);
  } finally {
    await Promise.all(sessions.map((session) => session.close()));
  }
}

/** A model's rebuild tables filled from the feed up to `position`, beside the live ones. */
interface Replayed {
  target: RebuildTarget;
  replayed: number;
  replaySeconds: number;
  position: GlobalPosition;
}

/** The live follower paused (its leadership taken) since `started`, by ending that many leader sessions. */
interface LivePause {
  started: number;
  leadersEnded: number;
}

/**
 * First half of a model's rebuild, with the live projection running: replays
 * the whole feed into fresh tables (its own checkpoint) and indexes them.
 */
async function replayBesideLive(options: RebuildOptions, model: ReadModel): Promise<Replayed> {
  const { pool } = options;
  const target = rebuildTarget(model);
  for (const pair of target.pairs) await createRebuildTable(pool, pair);
  await pool.query('DELETE FROM checkpoints WHERE name = $1', [target.checkpoint]);

  const started = Date.now();
  const bulk = await replay(options, target, START);
  const replaySeconds = (Date.now() - started) / 1000;
  logFor(options, model)(`replayed ${bulk.events} events in ${replaySeconds.toFixed(1)} s`);
  for (const pair of target.pairs) await createRebuildIndexes(pool, pair);
  // Whatever was written while the indexes were built, before the live projection pauses.
  const before = await replay(options, target, bulk.position);
  return { target, replayed: bulk.events + before.events, replaySeconds, position: before.position };
}

/**
 * Second half, with the live projection paused: catches up the events written
 * meanwhile, then swaps the tables and hands the rebuild's checkpoint to the
 * live projection — all in one transaction, so readers see the old tables or
 * the new, never none.
 */
async function catchUpAndSwitch(options: RebuildOptions, replayed: Replayed, pause: LivePause): Promise<RebuildReport> {
  const { pool } = options;
  const { target } = replayed;
  const last = await replay(options, target, replayed.position);
  await withRetries(() => inTransaction(pool, (client) => switchTables(client, target)));
  const pausedSeconds = (Date.now() - pause.started) / 1000;
  logFor(options, target.model)(`switched after catching up ${last.events} events; the live projection was paused ${pausedSeconds.toFixed(2)} s`);
  for (const pair of target.pairs) await dropOldTable(pool, pair);
  return {
    readModel: target.model.name,
    replayed: replayed.replayed,
    replaySeconds: replayed.replaySeconds,
    caughtUp: last.events,
    pausedSeconds,
    leadersEnded: pause.leadersEnded,
    position: formatPosition(last.position),
  };
}

function logFor(options: RebuildOptions, model: ReadModel): (line: string) => void {
  return (line) => options.log?.(`${model.name}: ${line}`);
}

/**
 * Replays the feed after `from` into the rebuild tables until it is caught
 * up, one transaction per batch with the rebuild's checkpoint; the next batch
 * is read while this one is written.
 */
async function replay(options: RebuildOptions, target: RebuildTarget, from: GlobalPosition) {
  const { pool, databaseUrl } = options;
  const batchSize = options.batchSize ?? 5000;
  const store = new PostgresEventStore(pool, { databaseUrl });
  const checkpoints = new CheckpointStore(pool);
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
      await target.model.project(client, batch, target.tables, (streamId) => store.readStream(streamId));
      await checkpoints.save(target.checkpoint, position, client);
    });
    events += batch.length;
  }
}

async function switchTables(client: PoolClient, target: RebuildTarget): Promise<void> {
  // Readers queue behind the renames' locks: never let them wait long for one.
  await client.query(`SET LOCAL lock_timeout = '2s'`);
  for (const pair of target.pairs) await switchTable(client, pair);
  const { rows } = await client.query<{ position: string }>(
    `INSERT INTO checkpoints (name, position) SELECT $1, position FROM checkpoints WHERE name = $2
     ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position, updated_at = now()
     RETURNING position`,
    [target.model.name, target.checkpoint],
  );
  await client.query('DELETE FROM checkpoints WHERE name = $1', [target.checkpoint]);
  // Read-your-writes waiters follow the live checkpoint: tell them where it is now.
  if (rows[0]) await notifyProjectionAdvanced(client, target.model.name, rows[0].position);
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

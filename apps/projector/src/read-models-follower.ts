import { Pool, PoolClient } from 'pg';
import { inTransactionIfNeeded, oneStatement, prepared, Statement } from '@app/database';
import { CheckpointSave, CheckpointStore, comparePositions, EventStore, FeedProcessor, feedLagAfter, formatPosition, GlobalPosition, RecordedEvent, saveAllStatement, START } from '@app/event-store';
import { trackFeedLag } from '@app/observability';
import { notifyProjectionAdvancedWith } from '@app/read-models';
import { ReadModel } from './read-model';

/**
 * The leadership lock (`feed:<name>`) of the one follower that keeps every read model: what a
 * rebuild takes to pause the live projection.
 */
export const READ_MODELS_FOLLOWER = 'read-models';

export interface ReadModelsFollowerOptions {
  pool: Pool;
  store: EventStore;
  /** Leadership is a session advisory lock on its own connection to this database. */
  databaseUrl: string;
  models: ReadModel[];
  batchSize?: number;
  retryDelayMs?: number;
}

/**
 * Follows the feed once for all the read models of the process: each batch is
 * read once and applied to every model in one transaction, with every model's
 * checkpoint saved (and its progress announced) in one statement. Each model
 * keeps its own checkpoint, so it can be rebuilt alone: the follower resumes
 * from the lowest and gives each model only the events after its own.
 */
export class ReadModelsFollower {
  private readonly processor: FeedProcessor;
  private readonly checkpoints: CheckpointStore;
  /** Each model's checkpoint as this leader loaded it when it took leadership, then saved it. */
  private positions = new Map<string, GlobalPosition>();
  private readonly untrackLags: (() => void)[] = [];

  constructor(private readonly options: ReadModelsFollowerOptions) {
    this.checkpoints = new CheckpointStore(options.pool);
    this.processor = new FeedProcessor({
      name: READ_MODELS_FOLLOWER,
      store: options.store,
      resumeFrom: () => this.resume(),
      databaseUrl: options.databaseUrl,
      batchSize: options.batchSize,
      retryDelayMs: options.retryDelayMs,
      handle: (events) => this.apply(events),
    });
  }

  start(): void {
    // Each model's own lag, as when each had its own follower: one rebuilt behind the others shows it.
    if (this.untrackLags.length === 0) this.untrackLags.push(...this.options.models.map((model) => trackFeedLag(model.name, () => this.lagOf(model))));
    this.processor.start();
  }

  async stop(): Promise<void> {
    for (const untrack of this.untrackLags.splice(0)) untrack();
    await this.processor.stop();
  }

  /**
   * Loads every model's checkpoint afresh on each leadership (another leader, or a rebuild's switch,
   * may have moved them meanwhile), and answers the lowest: where the feed is followed from.
   */
  private async resume(): Promise<GlobalPosition> {
    for (const model of this.options.models) model.restarting?.();
    this.positions = await this.checkpoints.loadAll(this.options.models.map((model) => model.name));
    return [...this.positions.values()].reduce((lowest, position) => (comparePositions(position, lowest) < 0 ? position : lowest));
  }

  /**
   * The batch commits for every model or for none, with the checkpoints, and the waiters are told
   * when it does. Usually in one statement (the models' writes and the checkpoints together, no
   * BEGIN and no COMMIT); a batch some model cannot write that way goes through one transaction,
   * begun only if some model writes. A model already past the batch is left out, its checkpoint
   * untouched.
   */
  private async apply(events: RecordedEvent[]): Promise<void> {
    const position = events[events.length - 1].position;
    const behind = this.options.models
      .map((model) => ({ model, events: eventsAfter(events, this.positions.get(model.name) ?? START) }))
      .filter((pending) => pending.events.length > 0);
    if (behind.length === 0) return;
    const readStream = (streamId: string) => this.options.store.readStream(streamId);
    const saves: CheckpointSave[] = behind.map(({ model, events: own }) => ({
      name: model.name,
      position,
      notify: notifyProjectionAdvancedWith(model.name, formatPosition(position), model.viewsWhoseStatusMayChange?.(own)),
    }));
    const writes = await this.writesInOneStatement(behind, readStream);
    if (writes) {
      const { text, values } = oneStatement(writes, saveAllStatement(saves));
      await this.options.pool.query(prepared(text, values));
    } else {
      await inTransactionIfNeeded(
        this.options.pool,
        async (client) => {
          for (const { model, events: own } of behind) await model.project(client, own, model.tables, readStream);
        },
        (client) => this.checkpoints.saveAll(saves, client),
      );
    }
    for (const { model } of behind) this.positions.set(model.name, position);
  }

  /**
   * Every model's writes for the batch, for one statement; null when some model needs its
   * transaction. A model without writesOf qualifies only if it has nothing to write: its project
   * runs on a client that refuses the first statement, which sends nothing (a model decides from
   * the events alone whether it needs the database at all).
   */
  private async writesInOneStatement(behind: Array<{ model: ReadModel; events: RecordedEvent[] }>, readStream: (streamId: string) => Promise<RecordedEvent[]>): Promise<Statement[] | null> {
    const writes: Statement[] = [];
    for (const { model, events } of behind) {
      if (model.writesOf) {
        const own = await model.writesOf(this.options.pool, events, model.tables, readStream);
        if (!own) return null;
        writes.push(...own);
      } else if (!(await sendsNothing(model, events, readStream))) return null;
    }
    return writes;
  }

  /** Events stored after what this leader has applied to the model (up to a limit), and the age of the oldest; null when not leading. */
  private async lagOf(model: ReadModel): Promise<{ events: number; seconds: number } | null> {
    const position = this.positions.get(model.name);
    if (!this.processor.isLeader || !position) return null;
    return feedLagAfter(this.options.store, position);
  }
}

/** Thrown by the client sendsNothing gives a model: the model wanted a statement. */
class WantsStatement extends Error {}

/** True when the model's project sends no statement for these events (it passes them all over). */
async function sendsNothing(model: ReadModel, events: RecordedEvent[], readStream: (streamId: string) => Promise<RecordedEvent[]>): Promise<boolean> {
  const refusing = {
    query: () => {
      throw new WantsStatement();
    },
  } as unknown as PoolClient;
  try {
    await model.project(refusing, events, model.tables, readStream);
    return true;
  } catch (error) {
    if (error instanceof WantsStatement) return false;
    throw error;
  }
}

/** The batch's events after `position` (the whole batch, not copied, when it all is). */
function eventsAfter(events: RecordedEvent[], position: GlobalPosition): RecordedEvent[] {
  if (comparePositions(events[0].position, position) > 0) return events;
  return events.filter((event) => comparePositions(event.position, position) > 0);
}

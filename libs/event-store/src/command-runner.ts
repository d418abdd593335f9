import { DomainError, formatPosition } from '@app/contracts';
import type { Decider } from '@app/decider';
import { SameMomentReads } from '@app/database';
import { DomainEvent, foldAggregate, LoadedAggregate, loadAggregate } from './aggregate-stream';
import { AppendBatcher } from './append-batcher';
import { LastWritten } from './last-written';
import { KnownStream, STREAM_CACHE_SIZE } from './command-runner-cache';
import { AppendResult, EventStore, NewEvent, RecordedEvent, refusalAsOutcome, StreamAppend, StreamAppendOutcome, WrongExpectedRevisionError } from './event-store.port';

/**
 * How many times a command is decided again after losing an append race before
 * the caller gets `service_unavailable` (a 503 it may retry). One bound for every
 * aggregate, because what it bounds is the same everywhere: a conflict means
 * another writer appended first, so each lost round is progress on the stream,
 * not a fault. Commands on one stream in one process are batched (below), so a
 * round is only lost to another replica; the busiest stream is a post during its
 * publication (an outcome and the first comments of each of up to 10 accounts,
 * from several publisher replicas at once, answered by several posts replicas).
 * 20 rounds covers that many replicas losing in turn with room to spare, and
 * each round is one read of a short stream, so the bound is reached well inside
 * the command timeout: it stops a livelocked request, it is not a throttle.
 */
export const MAX_CONFLICT_RETRIES = 20;

/** What a command runner needs to know of one aggregate. */
export interface CommandRunnerOptions<C, E extends DomainEvent, S> {
  store: EventStore;
  decider: Decider<C, E, S>;
  /** The stream of the aggregate with this id (post-<id>, comment-<id>). */
  streamId: (id: string) => string;
  /** The decided events as stored events (metadata: workspace, schema version, request id), given the state after them. */
  toNewEvents: (events: E[], state: S, requestId: string | undefined) => NewEvent[];
  /** The time commands are decided at (the configured clock: tests move it). */
  now: () => Date;
  /** Names the aggregate in the refusal once the retry bound is reached ("the post is changing too fast"). */
  aggregate: string;
}

/** One command for one stream. */
export interface StreamCommand<C, S> {
  /**
   * The command, built on the state it is decided on (again on each retry, so it
   * sees the winner's events). Throwing refuses it: nothing is appended for it.
   */
  build: (state: S, now: Date) => C;
  requestId: string | undefined;
  /** The id was just made, so the stream cannot exist yet: the first try skips reading it. */
  fresh?: boolean;
}

export interface CommandOutcome<E, S> {
  /** The aggregate after the command (and the commands decided with it). */
  state: S;
  /** The events this command decided and appended (none: nothing to do, e.g. a repeat). */
  events: E[];
  /** Global position ("commit:prepare") of the stream's last event after the command, null when it has none. */
  position: string | null;
}

interface Pending<C, E, S> {
  command: StreamCommand<C, S>;
  resolve: (outcome: CommandOutcome<E, S>) => void;
  reject: (error: unknown) => void;
}

type Decided<C, E, S> = { pending: Pending<C, E, S>; events: E[] } | { pending: Pending<C, E, S>; error: unknown };

/**
 * Load → decide → append with the expected revision, for every command on one
 * kind of aggregate. Commands on the same stream that arrive together in this
 * process (in the same turn, or while its batch before them runs) are decided
 * one after the other on the evolving state and appended in one go (the starts
 * and the account outcomes of one publication arrive at once), so they
 * never race each other. A conflict with another process means it won the
 * race: the whole batch is decided again on what it wrote, up to
 * MAX_CONFLICT_RETRIES times. The state and revision a batch leaves are kept
 * (LastWritten), so the next command on that stream appends without reading it
 * first; a stale entry costs one refused append and a read, never a wrong
 * decision, since only an accepted append proves the state it was decided on.
 *
 * Group commit: the batches of different streams ready in the same moment
 * (commands arriving together, each on its own post) are appended in one
 * statement (AppendBatcher → EventStore.appendMany), each stream still checked
 * against its own expected revision; a stream's refusal is its own outcome and
 * never fails its neighbours. A statement that fails as a whole (it wrote
 * nothing) is tried again for each stream alone, so one stream's bad event is
 * not its neighbours' failure.
 */
export class CommandRunner<C, E extends DomainEvent, S> {
  private readonly queues = new Map<string, Array<Pending<C, E, S>>>();
  private readonly cache = new LastWritten<KnownStream<S>>(STREAM_CACHE_SIZE);
  private readonly appends: AppendBatcher;
  /**
   * The streams the batches of one moment must read (not in the cache: the top of the hour's
   * rush, thousands of posts last touched long ago), read in one go (EventStore.readStreams).
   */
  private readonly streamReads: SameMomentReads<string, RecordedEvent[]>;

  constructor(private readonly options: CommandRunnerOptions<C, E, S>) {
    this.appends = new AppendBatcher(options.store);
    this.streamReads = new SameMomentReads((streamIds) => options.store.readStreams(streamIds));
  }

  /** The aggregate as its stream leaves it now. */
  load(id: string): Promise<LoadedAggregate<S>> {
    const { store, decider, streamId } = this.options;
    return loadAggregate<S, E>(store, streamId(id), decider.evolve, decider.initialState);
  }

  run(id: string, command: StreamCommand<C, S>): Promise<CommandOutcome<E, S>> {
    return new Promise((resolve, reject) => {
      const pending = { command, resolve, reject };
      const queue = this.queues.get(id);
      if (queue) {
        queue.push(pending);
        return;
      }
      this.queues.set(id, [pending]);
      // After the current tick: the commands on this stream that arrive with this one (the starts of
      // one publication, delivered in one socket read) are decided together and appended in one go,
      // rather than this one alone and the rest in a second round trip after it.
      queueMicrotask(() => void this.drain(id));
    });
  }

  /** Runs the queued commands of a stream in batches until none is left. */
  private async drain(id: string): Promise<void> {
    const queue = this.queues.get(id)!;
    while (queue.length > 0) {
      const batch = queue.splice(0, queue.length);
      await this.runBatch(id, batch).catch((error: unknown) => batch.forEach((pending) => pending.reject(error)));
    }
    this.queues.delete(id);
  }

  private async runBatch(id: string, batch: Array<Pending<C, E, S>>): Promise<void> {
    const { decider, streamId, toNewEvents, now, aggregate } = this.options;
    let cached = this.cache.take(id);
    // A fresh id needs no read: the append's no_stream check catches the impossible collision.
    let fresh = batch.every((pending) => pending.command.fresh);
    for (let attempt = 0; ; ) {
      const loaded: KnownStream<S> = cached ?? (fresh ? { state: decider.initialState(), expected: 'no_stream', position: null } : await this.loadKnown(id));
      fresh = false;
      let state = loaded.state;
      const decided: Array<Decided<C, E, S>> = [];
      const toAppend: NewEvent[] = [];
      for (const pending of batch) {
        try {
          const events = decider.decide(pending.command.build(state, now()), state);
          state = events.reduce(decider.evolve, state);
          if (events.length > 0) toAppend.push(...toNewEvents(events, state, pending.command.requestId));
          decided.push({ pending, events });
        } catch (error) {
          decided.push({ pending, error });
        }
      }
      let known = loaded;
      if (toAppend.length > 0) {
        try {
          const appended = await this.append({ streamId: streamId(id), events: toAppend, expected: loaded.expected });
          known = { state, expected: appended.revision, position: formatPosition(appended.position) };
        } catch (error) {
          if (!(error instanceof WrongExpectedRevisionError)) throw error;
          // A stale cached state is not a lost race: read the stream and decide again, without counting a round.
          if (cached) {
            cached = null;
            continue;
          }
          if (++attempt <= MAX_CONFLICT_RETRIES) continue;
          throw new DomainError('service_unavailable', `the ${aggregate} is changing too fast; retry`);
        }
      } else if (cached) {
        // Nothing appended, so nothing proved the cached state current: a refusal or a no-op must rest on the stream as it is.
        cached = null;
        continue;
      }
      this.cache.set(id, known);
      for (const outcome of decided) {
        if ('error' in outcome) outcome.pending.reject(outcome.error);
        else outcome.pending.resolve({ state, events: outcome.events, position: known.position });
      }
      return;
    }
  }

  /** Appends with the other streams' batches of the moment; a refusal is thrown as WrongExpectedRevisionError, as EventStore.append does. */
  private async append(append: StreamAppend): Promise<AppendResult> {
    let outcome: StreamAppendOutcome;
    try {
      outcome = await this.appends.append(append);
    } catch {
      // The shared statement wrote nothing: this stream alone, so that a neighbour's fault is not its own.
      outcome = await this.options.store.append(append.streamId, append.events, append.expected).catch(refusalAsOutcome);
    }
    if (outcome instanceof WrongExpectedRevisionError) throw outcome;
    return outcome;
  }

  /** The stream as it is now, read in full (with the other streams the batches of the moment read). */
  private async loadKnown(id: string): Promise<KnownStream<S>> {
    const { decider, streamId } = this.options;
    const loaded = foldAggregate((await this.streamReads.get(streamId(id))) ?? [], decider.evolve, decider.initialState);
    return { state: loaded.state, expected: loaded.expected, position: loaded.last ? formatPosition(loaded.last.position) : null };
  }
}

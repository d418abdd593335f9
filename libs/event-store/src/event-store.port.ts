import type { GlobalPosition } from '@app/contracts';

/** Expected revision of a stream when appending: 0-based revision of its last event. */
export type ExpectedRevision = 'no_stream' | 'any' | bigint;

export interface NewEvent {
  eventId: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
}

/** Metadata every event carries; adapters store it beside the data. */
export interface EventMetadata {
  workspaceId: string;
  version: number;
  /** The request that caused the event, for tracing across services. */
  requestId?: string;
  [key: string]: unknown;
}

export interface RecordedEvent {
  eventId: string;
  type: string;
  streamId: string;
  /** 0-based position within the stream. */
  revision: bigint;
  position: GlobalPosition;
  data: unknown;
  metadata: EventMetadata;
  createdAt: Date;
}

export interface AppendResult {
  /** Revision of the last event written. */
  revision: bigint;
  /** Global position of the last event written. */
  position: GlobalPosition;
}

/** One stream's part of a multi-stream append (EventStore.appendMany). */
export interface StreamAppend {
  streamId: string;
  events: NewEvent[];
  expected: ExpectedRevision;
}

/** What a multi-stream append did to one stream: its events are in, or the stream was not at the expected revision and none are. */
export type StreamAppendOutcome = AppendResult | WrongExpectedRevisionError;

/** A live follow of the global feed; see EventStore.subscribeToAll. */
export interface FeedSubscription {
  /** Stops delivering; resolves once the batch in hand (if any) is handled. */
  stop(): Promise<void>;
  /** Settles when the subscription ends: resolves on stop(), rejects with the handler's or the store's error. */
  readonly done: Promise<void>;
}

export type BatchHandler = (events: RecordedEvent[]) => Promise<void>;

/**
 * The port every event store adapter implements (contract tests in
 * event-store.contract.ts run against each).
 */
export interface EventStore {
  /**
   * Appends atomically, refusing with WrongExpectedRevisionError (and writing
   * nothing) when the stream is not at the expected revision.
   *
   * Retries are idempotent, as EventStoreDB's appends are
   * (https://developers.eventstore.com/clients/grpc/appending-events.html, the
   * event id; the server's rule: IndexWriter.CheckCommit in EventStore/KurrentDB):
   * an append whose events are all in the stream already, with the same ids,
   * in the same order, right after the expected revision (a retry of an append
   * that was written, e.g. after a lost answer) succeeds without writing
   * anything and returns the revision of the last of those events (and its
   * position). Anything else at a taken revision is refused, including an
   * append that repeats only some of the ids written there. Every new event
   * therefore needs a new id (PostgreSQL throws on an id stored elsewhere).
   * With 'any', EventStoreDB recognises a retry only while it remembers the
   * ids (a cache of recent ones), so a late 'any' retry may write the events
   * twice there; PostgreSQL always recognises it.
   */
  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;

  /**
   * Appends to several distinct streams in one call, each checked against its
   * own expected revision: a stream that is not at it gets none of its events
   * and a WrongExpectedRevisionError as its outcome, the others are written.
   * Outcomes come in the order of `appends`, and the events enter the global
   * feed in that order. Not atomic across streams: when the call throws, some
   * streams may have been written. A retry with the same events (same ids)
   * is safe: each stream is treated as `append` treats a retry, so the streams
   * already written get the result they got and nothing is written twice.
   */
  appendMany(appends: StreamAppend[]): Promise<StreamAppendOutcome[]>;

  /** All events of a stream in order; empty when the stream does not exist. */
  readStream(streamId: string): Promise<RecordedEvent[]>;

  /** readStream of several streams at once, by stream id: every id given is answered (empty when the stream does not exist). */
  readStreams(streamIds: string[]): Promise<Map<string, RecordedEvent[]>>;

  /** Up to maxCount events strictly after `after`, in global order; never skips one that commits later. */
  readAll(after: GlobalPosition, maxCount: number): Promise<RecordedEvent[]>;

  /**
   * A position that every event stored at or after `time` comes after in the global feed:
   * readAll from it misses none of them (it may also give some stored shortly before
   * `time`; filter on createdAt). START when the store cannot tell (a replay since a time).
   */
  positionBefore(time: Date): Promise<GlobalPosition>;

  /**
   * Delivers every event after `after`, in global order, in batches, then keeps
   * following. The handler is awaited before the next batch (back-pressure).
   * If the handler throws, the subscription ends with that error: the owner
   * resubscribes from its own checkpoint.
   */
  subscribeToAll(after: GlobalPosition, handler: BatchHandler, options?: { batchSize?: number }): FeedSubscription;

  /** Resolves when the store answers (readiness); throws when it cannot be reached. */
  ping(): Promise<void>;

  close(): Promise<void>;
}

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | 'no_stream',
  ) {
    super(`stream ${streamId}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

/** A stream's refusal as its outcome in a multi-stream append; any other failure stays an error. */
export function refusalAsOutcome(error: unknown): WrongExpectedRevisionError {
  if (error instanceof WrongExpectedRevisionError) return error;
  throw error;
}

export const EVENT_STORE = Symbol('EVENT_STORE');

import type { Readable } from 'node:stream';
import { Logger } from '@nestjs/common';
import {
  AllStreamResolvedEvent,
  AllStreamSubscription,
  BACKWARDS,
  END,
  ErrorType,
  EventData,
  EventStoreDBClient,
  excludeSystemEvents,
  isCommandError,
  JSONType,
  Position,
  ReadPosition,
  RecordedEvent as EsdbRecordedEvent,
  START as LOG_START,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import {
  AppendResult,
  BatchHandler,
  EventMetadata,
  EventStore,
  ExpectedRevision,
  FeedSubscription,
  NewEvent,
  RecordedEvent,
  refusalAsOutcome,
  StreamAppend,
  StreamAppendOutcome,
  WrongExpectedRevisionError,
} from './event-store.port';
import { comparePositions, GlobalPosition, START } from '@app/contracts';
import { countAppended } from './appended-events-metric';

/** The part of the client this adapter uses (unit tests hand in a fake). */
export type EventStoreDbClient = Pick<EventStoreDBClient, 'appendToStream' | 'readStream' | 'readAll' | 'subscribeToAll' | 'dispose'>;

export interface Backoff {
  initialMs: number;
  maxMs: number;
}

export interface EventStoreDbEventStoreOptions {
  /** Wait before resubscribing after a drop: doubles per consecutive failure, up to maxMs. */
  resubscribeBackoff?: Backoff;
  /** How long close() waits for the subscriptions to stop and the client to be disposed (DEFAULT_CLOSE_TIMEOUT_MS). */
  closeTimeoutMs?: number;
}

const DEFAULT_BACKOFF: Backoff = { initialMs: 200, maxMs: 10_000 };
const DEFAULT_BATCH_SIZE = 100;

/**
 * close() gives up waiting after this long. The client's dispose() waits for
 * every call it still has open to finish, and a read left unfinished (iteration
 * abandoned early) never does: shutdown must not hang on one.
 */
export const DEFAULT_CLOSE_TIMEOUT_MS = 5_000;

/** Appends appendMany has in flight at once (one stream each). */
export const APPEND_MANY_CONCURRENCY = 16;

/**
 * EventStoreDB 22.6 is the first to give the $all position of events read from a
 * stream (CHANGELOG 22.6.0, EventStore#3459:
 * https://github.com/EventStore/EventStore/pull/3459). Older servers leave it
 * unset, which the client reads as a position anyway (0 or the largest integer),
 * so it cannot be told from the events: the version is asked once, at start-up.
 */
export const MINIMUM_SERVER_VERSION: readonly [major: number, minor: number] = [22, 6];

/** Drops that resubscribing cannot cure: the subscription ends with them instead. */
const PERMANENT_ERRORS: ReadonlySet<ErrorType> = new Set([ErrorType.ACCESS_DENIED, ErrorType.INVALID_ARGUMENT, ErrorType.UNSUPPORTED]);

/**
 * The EventStoreDB adapter (production). Positions are EventStoreDB's own
 * (commit, prepare); events are JSON with our EventMetadata as their metadata.
 * Needs EventStoreDB 22.6 or later (MINIMUM_SERVER_VERSION; connect() checks it).
 *
 * Only events written through this port are part of the feed: system events
 * ('$' types), link events and events without JSON metadata are skipped.
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly subscriptions = new Set<FeedSubscription>();

  /** Takes ownership of the client: close() disposes it. */
  constructor(
    private readonly client: EventStoreDbClient,
    private readonly options: EventStoreDbEventStoreOptions = {},
  ) {}

  /**
   * Connects and checks the server's version (MINIMUM_SERVER_VERSION): an older
   * server, or one that cannot be reached, fails here, at start-up.
   * e.g. esdb://localhost:2113?tls=false, esdb://admin:changeit@host:2113?tls=true&tlsCAFile=ca.crt
   */
  static async connect(connectionString: string, options?: EventStoreDbEventStoreOptions): Promise<EventStoreDbEventStore> {
    const client = EventStoreDBClient.connectionString(connectionString);
    try {
      requireSupportedServer(await serverVersionOf(client));
    } catch (error) {
      await client.dispose();
      throw error;
    }
    return new EventStoreDbEventStore(client, options);
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    let result;
    try {
      result = await this.client.appendToStream(streamId, events.map(toEventData), { expectedRevision: expected });
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) throw new WrongExpectedRevisionError(streamId, expected, error.actualVersion);
      throw error;
    }
    // A refusal comes back as a result (not an error) only when the connection
    // string sets throwOnAppendFailure=false; its revision is not reliable then.
    if (!result.success) throw new WrongExpectedRevisionError(streamId, expected, await this.currentRevision(streamId));
    if (!result.position) throw new Error(`EventStoreDB reported no position for the append to ${streamId}`);
    countAppended(events);
    return { revision: result.nextExpectedRevision, position: result.position };
  }

  /**
   * EventStoreDB has no transaction across streams: one append per stream, each
   * with its own check, up to APPEND_MANY_CONCURRENCY at once. They are sent in
   * the order given and reach the log in that order: the client sends every
   * append of a connection, in call order, down one BatchAppend call
   * (streams/appendToStream/batchAppend.js), which the server reads one request
   * after the other and hands to its single writer in that order
   * (Services/Transport/Grpc/Streams.BatchAppend.cs).
   */
  async appendMany(appends: StreamAppend[]): Promise<StreamAppendOutcome[]> {
    if (new Set(appends.map((a) => a.streamId)).size !== appends.length) throw new Error('appendMany needs distinct streams');
    return mapInOrder(appends, APPEND_MANY_CONCURRENCY, ({ streamId, events, expected }) => this.append(streamId, events, expected).catch(refusalAsOutcome));
  }

  private async currentRevision(streamId: string): Promise<bigint | 'no_stream'> {
    const [last] = await collectStream(this.client.readStream(streamId, { direction: BACKWARDS, fromRevision: END, maxCount: 1 }));
    return last?.event ? last.event.revision : 'no_stream';
  }

  /** A read of a stream that need not exist: one round trip to the server. */
  async ping(): Promise<void> {
    await this.readStream('readiness-ping');
  }

  async readStream(streamId: string): Promise<RecordedEvent[]> {
    const records = await collectStream(this.client.readStream(streamId));
    return records.flatMap((record) => toDomainEvent(record) ?? []);
  }

  /** One read per stream (EventStoreDB reads one stream a call), up to APPEND_MANY_CONCURRENCY at once. */
  async readStreams(streamIds: string[]): Promise<Map<string, RecordedEvent[]>> {
    const unique = [...new Set(streamIds)];
    const histories = await mapInOrder(unique, APPEND_MANY_CONCURRENCY, (streamId) => this.readStream(streamId));
    return new Map(unique.map((streamId, i) => [streamId, histories[i]]));
  }

  /** EventStoreDB keeps no index by time: from the start (readers filter on createdAt). */
  async positionBefore(): Promise<GlobalPosition> {
    return START;
  }

  async readAll(after: GlobalPosition, maxCount: number): Promise<RecordedEvent[]> {
    if (maxCount <= 0) return [];
    // $all reads cannot filter server-side in this client, and they include the
    // record at fromPosition: page through, skipping that record and non-domain ones.
    const pageSize = maxCount + 1;
    const found: RecordedEvent[] = [];
    let cursor = after;
    for (;;) {
      const page = await collect(this.client.readAll({ fromPosition: toReadPosition(cursor), maxCount: pageSize }));
      for (const record of page) {
        if (!isAfter(recordPosition(record), cursor)) continue;
        const event = toDomainEvent(record);
        if (event) found.push(event);
        if (found.length === maxCount) return found;
      }
      if (page.length < pageSize) return found;
      cursor = recordPosition(page[page.length - 1]);
    }
  }

  subscribeToAll(after: GlobalPosition, handler: BatchHandler, options: { batchSize?: number } = {}): FeedSubscription {
    const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    const subscription = followAll({
      after,
      handler,
      batchSize,
      backoff: this.options.resubscribeBackoff ?? DEFAULT_BACKOFF,
      // fromPosition is exclusive for subscriptions; the buffer bounds how much a batch can hold.
      subscribe: (from) =>
        this.client.subscribeToAll({ fromPosition: toReadPosition(from), filter: excludeSystemEvents() }, { highWaterMark: batchSize }),
    });
    this.subscriptions.add(subscription);
    subscription.done.then(
      () => this.subscriptions.delete(subscription),
      () => this.subscriptions.delete(subscription),
    );
    return subscription;
  }

  /** Stops the subscriptions and disposes the client, waiting at most closeTimeoutMs (then leaves them, saying so). */
  async close(): Promise<void> {
    const timeoutMs = this.options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS;
    const closing = (async () => {
      await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
      await this.client.dispose();
    })();
    if (!(await settlesWithin(closing, timeoutMs))) {
      new Logger(EventStoreDbEventStore.name).warn(`EventStoreDB client not closed after ${timeoutMs} ms (a call still open): shutting down without it`);
    }
  }
}

/** The server's version as its server-features call reports it; 'unknown' from a server without that call (older than 21.10). */
export async function serverVersionOf(client: EventStoreDBClient): Promise<string> {
  // The client asks the ServerFeatures service once per connection (and again
  // after a reconnect) for its own use (supports()), but keeps the answer
  // behind a protected getter: Client/index.d.ts `capabilities`, whose
  // ServerFeatures has the public `serverVersion`.
  const features = await (client as unknown as { capabilities: Promise<{ serverVersion: string }> }).capabilities;
  return features.serverVersion;
}

/** Throws, saying what is needed, unless `version` (major.minor.patch) is MINIMUM_SERVER_VERSION or newer. */
export function requireSupportedServer(version: string): void {
  const [major, minor] = version.split('.').map((part) => Number.parseInt(part, 10));
  const [minMajor, minMinor] = MINIMUM_SERVER_VERSION;
  const supported = Number.isInteger(major) && Number.isInteger(minor) && (major > minMajor || (major === minMajor && minor >= minMinor));
  if (!supported) {
    throw new Error(
      `EventStoreDB ${minMajor}.${minMinor} or newer is needed (stream reads must report $all positions); the server reports version ${version}` +
        (version === 'unknown' ? ' (it has no server-features call: older than 21.10)' : ''),
    );
  }
}

/** Whether `work` ends within `ms` (rejecting with its error if it fails in time); it is left running if not. */
async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  work.catch(() => undefined); // a failure after the limit has nobody left to tell
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  try {
    return await Promise.race([work.then(() => true), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * fn over items with at most `limit` calls in flight; calls start in the
 * order of the items, results come back in that order. Rejects with the first
 * failure.
 */
async function mapInOrder<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    // After a failure no further call starts (the caller gets the error; those in flight finish).
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index]);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

interface FollowAllOptions {
  after: GlobalPosition;
  handler: BatchHandler;
  batchSize: number;
  backoff: Backoff;
  subscribe: (after: GlobalPosition) => AllStreamSubscription;
}

/**
 * Follows $all through a catch-up subscription. The client does not resume a
 * dropped subscription, so a drop resubscribes from the last position handled
 * (after a backoff); a handler error ends it, for the owner to resume from its
 * own checkpoint.
 */
function followAll(options: FollowAllOptions): FeedSubscription {
  let stopped = false;
  let current: AllStreamSubscription | null = null;
  let wakeFromBackoff: (() => void) | null = null;

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(wake, ms);
      function wake() {
        clearTimeout(timer);
        wakeFromBackoff = null;
        resolve();
      }
      wakeFromBackoff = wake;
    });

  const run = async () => {
    let position = options.after;
    let failures = 0;
    while (!stopped) {
      const subscription = options.subscribe(position);
      current = subscription;
      let drop: unknown;
      try {
        drop = await deliverUntilDropped(
          subscription,
          options.batchSize,
          async (records) => {
            const events = records.flatMap((record) => toDomainEvent(record) ?? []);
            if (events.length > 0) await options.handler(events);
            position = recordPosition(records[records.length - 1]);
            failures = 0;
          },
          () => stopped,
        );
      } finally {
        current = null;
        // Destroying the readable does not end the gRPC call: cancel it too.
        await subscription.unsubscribe().catch(() => undefined);
      }
      if (stopped) return;
      if (!isRecoverable(drop)) throw drop;
      await pause(backoffDelay(options.backoff, failures++));
    }
  };

  const done = run();
  done.catch(() => undefined); // observed through `done` by the owner
  return {
    done,
    async stop() {
      stopped = true;
      // Ends a wait for the next event; a batch in hand is still handled.
      current?.destroy();
      wakeFromBackoff?.();
      await done.catch(() => undefined);
    },
  };
}

/**
 * Hands batches to onBatch until the subscription fails or ends (returned as
 * the drop) or shouldStop says so. onBatch's own errors propagate.
 */
async function deliverUntilDropped(
  subscription: AllStreamSubscription,
  batchSize: number,
  onBatch: (records: AllStreamResolvedEvent[]) => Promise<void>,
  shouldStop: () => boolean,
): Promise<unknown> {
  // The iterator sees errors through its own listener; this one keeps an error
  // emitted after iteration ended from crashing the process.
  subscription.on('error', () => undefined);
  const batches = inBatches<AllStreamResolvedEvent>(subscription, batchSize);
  try {
    while (!shouldStop()) {
      let next: IteratorResult<AllStreamResolvedEvent[]>;
      try {
        next = await batches.next();
      } catch (error) {
        return error;
      }
      if (shouldStop()) break;
      if (next.done) return new Error('EventStoreDB ended the $all subscription');
      await onBatch(next.value);
    }
    return undefined;
  } finally {
    await batches.return(undefined);
  }
}

/**
 * Groups what the stream has already buffered (up to max) into one batch; never
 * waits to fill one. While a batch is being handled nothing is read, so the
 * buffer fills and the gRPC stream is paused (back-pressure).
 */
export async function* inBatches<T>(stream: AsyncIterable<T> & Pick<Readable, 'readableLength'>, max: number): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for await (const item of stream) {
    batch.push(item);
    if (batch.length >= max || stream.readableLength === 0) {
      yield batch;
      batch = [];
    }
  }
}

export function backoffDelay(backoff: Backoff, failures: number): number {
  return Math.min(backoff.maxMs, backoff.initialMs * 2 ** failures);
}

function isRecoverable(error: unknown): boolean {
  return !(error instanceof Error && isCommandError(error) && PERMANENT_ERRORS.has(error.type));
}

function toEventData(event: NewEvent): EventData {
  return {
    id: event.eventId,
    contentType: 'application/json',
    type: event.type,
    data: event.data as JSONType,
    metadata: event.metadata,
  };
}

/** START is "before the first event": the log's own start, which the read includes. */
function toReadPosition(position: GlobalPosition): ReadPosition {
  return isStart(position) ? LOG_START : { commit: position.commit, prepare: position.prepare };
}

function isStart(position: GlobalPosition): boolean {
  return comparePositions(position, START) === 0;
}

function isAfter(position: GlobalPosition, cursor: GlobalPosition): boolean {
  return isStart(cursor) || comparePositions(position, cursor) > 0;
}

function recordPosition(record: AllStreamResolvedEvent): Position {
  const position = record.event?.position ?? record.link?.position;
  if (!position) throw new Error('EventStoreDB returned a $all record without a position');
  return position;
}

/** Our event, or undefined for records this port did not write (system, link, non-JSON). */
function toDomainEvent(record: { event?: EsdbRecordedEvent; link?: unknown }): RecordedEvent | undefined {
  const event = record.event;
  if (!event || record.link || event.type.startsWith('$') || !event.isJson || !isJsonObject(event.metadata)) return undefined;
  // The client fills a position whenever the server's message has one; the server version is checked at start-up.
  if (!event.position) throw new Error(`EventStoreDB reported no position for ${event.streamId}@${event.revision}`);
  return {
    eventId: event.id,
    type: event.type,
    streamId: event.streamId,
    revision: event.revision,
    position: event.position,
    data: event.data,
    metadata: event.metadata as EventMetadata,
    createdAt: event.created,
  };
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

async function collect<T>(read: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of read) items.push(item);
  return items;
}

/** A stream that does not exist reads as empty. */
async function collectStream<T>(read: AsyncIterable<T>): Promise<T[]> {
  try {
    return await collect(read);
  } catch (error) {
    if (error instanceof StreamNotFoundError) return [];
    throw error;
  }
}

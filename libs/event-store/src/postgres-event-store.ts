import { Pool } from 'pg';
import {
  AppendResult,
  BatchHandler,
  EventMetadata,
  EventStore,
  ExpectedRevision,
  FeedSubscription,
  NewEvent,
  RecordedEvent,
  StreamAppend,
  StreamAppendOutcome,
  refusalAsOutcome,
  WrongExpectedRevisionError,
} from './event-store.port';
import { GlobalPosition, START } from '@app/contracts';
import { prepared } from '@app/database';
import { countAppended } from './appended-events-metric';
import { followFeed } from './follow-feed';
import { AppendSignal, PostgresAppendSignal } from './append-signal';
import { SharedFeedReads } from './shared-feed-reads';

interface EventRow {
  global_position: string;
  transaction_id: string;
  event_id: string;
  stream_id: string;
  stream_position: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  created_at: Date;
}

const COLUMNS = 'global_position, transaction_id::text AS transaction_id, event_id, stream_id, stream_position, type, data, metadata, created_at';

/**
 * One statement appends all events and checks the expected revision: the
 * unique (stream_id, stream_position) constraint settles concurrent appends
 * (exactly one wins), and nothing is written when the check fails.
 */
const APPEND_SQL = `
WITH current AS (
  SELECT coalesce(max(stream_position), -1) AS revision FROM events WHERE stream_id = $1
)
INSERT INTO events (event_id, stream_id, stream_position, type, data, metadata)
SELECT e.event_id, $1, current.revision + e.ordinality, e.type, e.data, e.metadata
FROM current,
     unnest($2::uuid[], $3::text[], $4::jsonb[], $5::jsonb[]) WITH ORDINALITY AS e(event_id, type, data, metadata, ordinality)
WHERE $6::bigint IS NULL OR current.revision = $6::bigint
RETURNING global_position, transaction_id::text AS transaction_id, stream_position`;

/**
 * The same for several streams in one statement, each checked against its own
 * expected revision (NULL: any): a stream not at it gets no rows. Rows are
 * inserted in `feed_order`, so the global feed has them in the order given.
 * One stream goes through APPEND_SQL instead, about a fifth faster (measured
 * at c=32): a lone append is the common case (every command).
 */
const APPEND_MANY_SQL = `
WITH input AS (
  SELECT * FROM unnest($1::text[], $2::bigint[], $3::uuid[], $4::text[], $5::jsonb[], $6::jsonb[], $7::int[])
    WITH ORDINALITY AS e(stream_id, expected, event_id, type, data, metadata, offset_in_stream, feed_order)
),
current AS (
  SELECT s.stream_id, coalesce((SELECT max(stream_position) FROM events WHERE events.stream_id = s.stream_id), -1) AS revision
  FROM (SELECT DISTINCT stream_id FROM input) AS s
)
INSERT INTO events (event_id, stream_id, stream_position, type, data, metadata)
SELECT i.event_id, i.stream_id, c.revision + i.offset_in_stream, i.type, i.data, i.metadata
FROM input i JOIN current c ON c.stream_id = i.stream_id
WHERE i.expected IS NULL OR c.revision = i.expected
ORDER BY i.feed_order
RETURNING global_position, transaction_id::text AS transaction_id, stream_id, stream_position`;

/**
 * What decides a refused append's outcome, in one round trip: the rows of its
 * event ids (a retry finds them written) and its streams' current revisions
 * (for the refusal). Numbers as text: JSON numbers lose bigint precision.
 */
const REFUSAL_SQL = `
SELECT
  (SELECT coalesce(json_agg(json_build_object('stream_id', stream_id, 'revision', revision::text)), '[]')
     FROM (SELECT stream_id, max(stream_position) AS revision FROM events WHERE stream_id = ANY($1::text[]) GROUP BY stream_id) AS r) AS revisions,
  (SELECT coalesce(json_agg(json_build_object('event_id', event_id, 'stream_id', stream_id, 'stream_position', stream_position::text,
                                              'global_position', global_position::text, 'transaction_id', transaction_id::text)), '[]')
     FROM events WHERE event_id = ANY($2::uuid[])) AS written`;

const UNIQUE_VIOLATION = '23505';

interface WrittenRow {
  event_id: string;
  stream_id: string;
  stream_position: string;
  global_position: string;
  transaction_id: string;
}

/** The expected revision as the statements take it: NULL for any, -1 for no stream. */
function expectedParameter(expected: ExpectedRevision): string | null {
  return expected === 'any' ? null : expected === 'no_stream' ? '-1' : expected.toString();
}

function appendResult(row: { global_position: string; transaction_id: string; stream_position: string }): AppendResult {
  return { revision: BigInt(row.stream_position), position: { commit: BigInt(row.transaction_id), prepare: BigInt(row.global_position) } };
}

/** The unique constraint an error violated, if that is what it is. */
function violatedConstraint(error: unknown): string | undefined {
  const { code, constraint } = (error ?? {}) as { code?: string; constraint?: string };
  return code === UNIQUE_VIOLATION ? constraint : undefined;
}

/** A concurrent append wrote the revision first (the unique stream position). */
function isRevisionTaken(error: unknown): boolean {
  return violatedConstraint(error) === 'events_stream_revision';
}

/** An event id is already stored (events.event_id is unique): a retry, or an id reused. */
function isEventIdTaken(error: unknown): boolean {
  return violatedConstraint(error) === 'events_event_id_key';
}

function eventIdReused(streamId: string): Error {
  return new Error(`append to ${streamId}: an event id is already stored, and not as a retry of this append (every new event needs a new id)`);
}

/**
 * The result of the append that already wrote `append`'s events, when this is
 * a retry of it: every event is in the stream, in order, right after the
 * expected revision (for 'any': anywhere, one after the other). This is
 * EventStoreDB's rule for an idempotent append (the port's contract).
 */
function retriedResult(append: StreamAppend, written: Map<string, WrittenRow>): AppendResult | undefined {
  const rows = append.events.map((event) => written.get(event.eventId.toLowerCase()));
  if (rows.length === 0 || rows.some((row) => row?.stream_id !== append.streamId)) return undefined;
  const first = BigInt(rows[0]!.stream_position);
  if (append.expected !== 'any' && first !== (append.expected === 'no_stream' ? 0n : append.expected + 1n)) return undefined;
  if (rows.some((row, i) => BigInt(row!.stream_position) !== first + BigInt(i))) return undefined;
  return appendResult(rows[rows.length - 1]!);
}

/** Longer than any append transaction runs (positionBefore's margin; one that ran longer also holds the feed back that long). */
const APPEND_MAX_MS = 5 * 60_000;

/**
 * The PostgreSQL adapter. The global feed is ordered by (transaction id,
 * sequence) and only rows from transactions older than every running one are
 * read, so a reader never skips an event that commits late.
 */
export class PostgresEventStore implements EventStore {
  private readonly appended: AppendSignal;
  /** The feed reads of this process's followers, shared when they ask for the same one in the same moment. */
  private readonly feedReads = new SharedFeedReads((after, maxCount) => this.readAll(after, maxCount));
  /** The followers to wake on a signal, and the one listener that hears it for all of them. */
  private readonly followers = new Set<() => void>();
  private listening: Promise<() => Promise<void>> | null = null;

  /** `signal`: how followers learn of appends (PostgreSQL's NOTIFY when absent). */
  constructor(
    private readonly pool: Pool,
    private readonly options: { databaseUrl: string; pollIntervalMs?: number; signal?: AppendSignal },
  ) {
    this.appended = options.signal ?? new PostgresAppendSignal(pool, options.databaseUrl);
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const expectedValue = expectedParameter(expected);
    for (;;) {
      let refusal: unknown = null;
      try {
        const { rows } = await this.pool.query<{ global_position: string; transaction_id: string; stream_position: string }>(
          prepared(APPEND_SQL, [
            streamId,
            events.map((e) => e.eventId),
            events.map((e) => e.type),
            events.map((e) => JSON.stringify(e.data)),
            events.map((e) => JSON.stringify(e.metadata)),
            expectedValue,
          ]),
        );
        if (rows.length > 0) {
          this.appended.signal();
          countAppended(events);
          return appendResult(rows[rows.length - 1]);
        }
      } catch (error) {
        // A concurrent append took the revision first. 'any' tries again on top of it.
        if (isRevisionTaken(error) && expected === 'any') continue;
        if (!isRevisionTaken(error) && !isEventIdTaken(error)) throw error;
        refusal = error;
      }
      // Nothing written: a retry of an append that was written gets that append's result; anything else is refused.
      const [outcome] = await this.refusedOutcomes([{ streamId, events, expected }]);
      if (!(outcome instanceof WrongExpectedRevisionError)) return outcome;
      throw isEventIdTaken(refusal) ? eventIdReused(streamId) : outcome;
    }
  }

  async appendMany(appends: StreamAppend[]): Promise<StreamAppendOutcome[]> {
    if (appends.some((a) => a.events.length === 0)) throw new Error('append needs at least one event');
    if (new Set(appends.map((a) => a.streamId)).size !== appends.length) throw new Error('appendMany needs distinct streams');
    if (appends.length <= 1) {
      return Promise.all(appends.map(({ streamId, events, expected }) => this.append(streamId, events, expected).catch(refusalAsOutcome)));
    }
    const outcomes = new Map<string, StreamAppendOutcome>();
    let pending = appends;
    while (pending.length > 0) {
      let written: Map<string, AppendResult>;
      try {
        written = await this.insertMany(pending);
      } catch (error) {
        // A concurrent append took a revision first: once it has committed, the checks see it (an 'any' stream goes on top of it).
        if (isRevisionTaken(error)) continue;
        if (!isEventIdTaken(error)) throw error;
        // Some events are stored already (the statement wrote nothing): the retried streams get their results, the rest go again.
        const retried = (await this.refusedOutcomes(pending)).map((outcome) => (outcome instanceof WrongExpectedRevisionError ? undefined : outcome));
        if (!retried.some(Boolean)) throw eventIdReused(pending.map((a) => a.streamId).join(', '));
        pending = pending.filter((append, i) => {
          const result = retried[i];
          if (result) outcomes.set(append.streamId, result);
          return !result;
        });
        continue;
      }
      for (const [streamId, result] of written) outcomes.set(streamId, result);
      const refused = pending.filter((a) => !written.has(a.streamId));
      if (refused.length > 0) (await this.refusedOutcomes(refused)).forEach((outcome, i) => outcomes.set(refused[i].streamId, outcome));
      break;
    }
    return appends.map((a) => outcomes.get(a.streamId)!);
  }

  /** One APPEND_MANY_SQL statement: the last event written to each stream that was at its expected revision. */
  private async insertMany(appends: StreamAppend[]): Promise<Map<string, AppendResult>> {
    const rows = appends.flatMap(({ streamId, events, expected }) => events.map((event, index) => ({ streamId, expected: expectedParameter(expected), event, offset: index + 1 })));
    const { rows: written } = await this.pool.query<{ global_position: string; transaction_id: string; stream_id: string; stream_position: string }>(
      prepared(APPEND_MANY_SQL, [
        rows.map((r) => r.streamId),
        rows.map((r) => r.expected),
        rows.map((r) => r.event.eventId),
        rows.map((r) => r.event.type),
        rows.map((r) => JSON.stringify(r.event.data)),
        rows.map((r) => JSON.stringify(r.event.metadata)),
        rows.map((r) => r.offset),
      ]),
    );
    if (written.length > 0) this.appended.signal();
    const last = new Map<string, AppendResult>();
    for (const row of written) {
      const result = appendResult(row);
      const seen = last.get(row.stream_id);
      if (!seen || seen.revision < result.revision) last.set(row.stream_id, result);
    }
    for (const append of appends) if (last.has(append.streamId)) countAppended(append.events);
    return last;
  }

  /**
   * The outcome of each append the store did not write: the result of the
   * append that already wrote its events when it is a retry of one
   * (retriedResult), else its refusal with the stream's current revision.
   */
  private async refusedOutcomes(appends: StreamAppend[]): Promise<StreamAppendOutcome[]> {
    const { rows } = await this.pool.query<{ revisions: Array<{ stream_id: string; revision: string }>; written: WrittenRow[] }>(REFUSAL_SQL, [
      appends.map((a) => a.streamId),
      appends.flatMap((a) => a.events.map((e) => e.eventId)),
    ]);
    const revisions = new Map(rows[0].revisions.map((row) => [row.stream_id, BigInt(row.revision)]));
    const written = new Map(rows[0].written.map((row) => [row.event_id, row]));
    return appends.map(
      (append) => retriedResult(append, written) ?? new WrongExpectedRevisionError(append.streamId, append.expected, revisions.get(append.streamId) ?? 'no_stream'),
    );
  }

  async readStream(streamId: string): Promise<RecordedEvent[]> {
    const { rows } = await this.pool.query<EventRow>(prepared(`SELECT ${COLUMNS} FROM events WHERE stream_id = $1 ORDER BY stream_position`, [streamId]));
    return rows.map(toRecorded);
  }

  /** One statement for all the streams. */
  async readStreams(streamIds: string[]): Promise<Map<string, RecordedEvent[]>> {
    const streams = new Map<string, RecordedEvent[]>(streamIds.map((id) => [id, []]));
    if (streamIds.length === 0) return streams;
    const { rows } = await this.pool.query<EventRow>(prepared(`SELECT ${COLUMNS} FROM events WHERE stream_id = ANY($1::text[]) ORDER BY stream_id, stream_position`, [streamIds]));
    for (const row of rows) streams.get(row.stream_id)!.push(toRecorded(row));
    return streams;
  }

  async readAll(after: GlobalPosition, maxCount: number): Promise<RecordedEvent[]> {
    const { rows } = await this.pool.query<EventRow>(
      prepared(
        `SELECT ${COLUMNS} FROM events
         WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
           AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
         -- Qualified: the bare name would be the text output column, whose order is not xid8's ('10' < '9'), and no index has it.
         ORDER BY events.transaction_id, events.global_position
         LIMIT $3`,
        [after.commit.toString(), after.prepare.toString(), maxCount],
      ),
    );
    return rows.map(toRecorded);
  }

  /**
   * The newest event stored more than APPEND_MAX_MS before `time` (index events_created_at). An
   * event's created_at is its transaction's start, and an append is one short transaction: that
   * event's transaction id was given before `time`, so before the id of every event stored at or
   * after `time` — which come after it in the feed, ordered by transaction id first.
   */
  async positionBefore(time: Date): Promise<GlobalPosition> {
    const { rows } = await this.pool.query<{ transaction_id: string; global_position: string }>(
      `SELECT transaction_id::text AS transaction_id, global_position FROM events
       WHERE created_at < $1::timestamptz - $2::bigint * interval '1 millisecond' ORDER BY created_at DESC LIMIT 1`,
      [time, APPEND_MAX_MS],
    );
    return rows[0] ? { commit: BigInt(rows[0].transaction_id), prepare: BigInt(rows[0].global_position) } : START;
  }

  subscribeToAll(after: GlobalPosition, handler: BatchHandler, options: { batchSize?: number } = {}): FeedSubscription {
    return followFeed({
      after,
      handler,
      batchSize: options.batchSize ?? 500,
      read: (from, count) => this.feedReads.readAll(from, count),
      pollIntervalMs: this.options.pollIntervalMs ?? 500,
      listen: (wake) => this.listenAsFollower(wake),
    });
  }

  /**
   * One listener for every follower of the process: each signal is counted once for the shared
   * reads, before any follower is woken by it, and the process holds one subscription (or LISTEN
   * connection) however many followers it runs. It ends with the last follower.
   */
  private async listenAsFollower(wake: () => void): Promise<() => Promise<void>> {
    this.followers.add(wake);
    this.listening ??= this.appended.listen(() => {
      this.feedReads.heard();
      for (const follower of this.followers) follower();
    });
    const listening = this.listening;
    try {
      await listening;
    } catch (error) {
      this.followers.delete(wake);
      if (this.listening === listening) this.listening = null;
      throw error;
    }
    // A read begun before this follower listened may miss an append nobody heard (no follower was listening): never its answer.
    this.feedReads.heard();
    return async () => {
      this.followers.delete(wake);
      if (this.followers.size > 0 || this.listening !== listening) return;
      this.listening = null;
      await (await listening)();
    };
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async close(): Promise<void> {
    // The pool belongs to the caller.
  }
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    eventId: row.event_id,
    type: row.type,
    streamId: row.stream_id,
    revision: BigInt(row.stream_position),
    position: { commit: BigInt(row.transaction_id), prepare: BigInt(row.global_position) },
    data: row.data,
    metadata: row.metadata,
    createdAt: row.created_at,
  };
}

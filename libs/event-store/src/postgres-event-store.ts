import { Client, Pool } from 'pg';
import {
  AppendResult,
  BatchHandler,
  EventMetadata,
  EventStore,
  ExpectedRevision,
  FeedSubscription,
  NewEvent,
  RecordedEvent,
  WrongExpectedRevisionError,
} from './event-store.port';
import { GlobalPosition } from './position';
import { followFeed } from './follow-feed';
import { AppendNotifier, EVENTS_APPENDED_CHANNEL } from './append-notifier';

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

const UNIQUE_VIOLATION = '23505';

/**
 * The PostgreSQL adapter. The global feed is ordered by (transaction id,
 * sequence) and only rows from transactions older than every running one are
 * read, so a reader never skips an event that commits late.
 */
export class PostgresEventStore implements EventStore {
  private readonly notifier: AppendNotifier;

  constructor(
    private readonly pool: Pool,
    private readonly options: { databaseUrl: string; pollIntervalMs?: number },
  ) {
    this.notifier = new AppendNotifier(pool);
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const expectedValue = expected === 'any' ? null : expected === 'no_stream' ? '-1' : expected.toString();
    for (;;) {
      try {
        const { rows } = await this.pool.query<{ global_position: string; transaction_id: string; stream_position: string }>(APPEND_SQL, [
          streamId,
          events.map((e) => e.eventId),
          events.map((e) => e.type),
          events.map((e) => JSON.stringify(e.data)),
          events.map((e) => JSON.stringify(e.metadata)),
          expectedValue,
        ]);
        if (rows.length === 0) throw new WrongExpectedRevisionError(streamId, expected, await this.currentRevision(streamId));
        this.notifier.signal();
        const last = rows[rows.length - 1];
        return { revision: BigInt(last.stream_position), position: { commit: BigInt(last.transaction_id), prepare: BigInt(last.global_position) } };
      } catch (error) {
        if ((error as { code?: string; constraint?: string }).code === UNIQUE_VIOLATION && (error as { constraint?: string }).constraint === 'events_stream_revision') {
          // A concurrent append took the revision first. 'any' tries again on top of it.
          if (expected === 'any') continue;
          throw new WrongExpectedRevisionError(streamId, expected, await this.currentRevision(streamId));
        }
        throw error;
      }
    }
  }

  private async currentRevision(streamId: string): Promise<bigint | 'no_stream'> {
    const { rows } = await this.pool.query<{ revision: string | null }>('SELECT max(stream_position) AS revision FROM events WHERE stream_id = $1', [streamId]);
    return rows[0].revision === null ? 'no_stream' : BigInt(rows[0].revision);
  }

  async readStream(streamId: string): Promise<RecordedEvent[]> {
    const { rows } = await this.pool.query<EventRow>(`SELECT ${COLUMNS} FROM events WHERE stream_id = $1 ORDER BY stream_position`, [streamId]);
    return rows.map(toRecorded);
  }

  async readAll(after: GlobalPosition, maxCount: number): Promise<RecordedEvent[]> {
    const { rows } = await this.pool.query<EventRow>(
      `SELECT ${COLUMNS} FROM events
       WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
         AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY transaction_id, global_position
       LIMIT $3`,
      [after.commit.toString(), after.prepare.toString(), maxCount],
    );
    return rows.map(toRecorded);
  }

  subscribeToAll(after: GlobalPosition, handler: BatchHandler, options: { batchSize?: number } = {}): FeedSubscription {
    return followFeed({
      after,
      handler,
      batchSize: options.batchSize ?? 500,
      read: (from, count) => this.readAll(from, count),
      pollIntervalMs: this.options.pollIntervalMs ?? 500,
      listen: (wake) => listenForAppends(this.options.databaseUrl, wake),
    });
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

/** A dedicated connection LISTENing for the append trigger's notifications. */
async function listenForAppends(databaseUrl: string, wake: () => void): Promise<() => Promise<void>> {
  const client = new Client({ connectionString: databaseUrl });
  client.on('error', () => undefined); // a lost listener only costs latency: the follower also polls
  await client.connect();
  client.on('notification', wake);
  await client.query(`LISTEN ${EVENTS_APPENDED_CHANNEL}`);
  return async () => {
    await client.end().catch(() => undefined);
  };
}

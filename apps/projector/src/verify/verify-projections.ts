import { Pool, PoolClient } from 'pg';
import { inTransaction } from '@app/database';
import { comparePositions, GlobalPosition, parsePosition, PostgresEventStore, RecordedEvent, START } from '@app/event-store';
import { ReadModel, renamedTables } from '../read-model';
import { projectIntoEvery, READ_MODELS } from '../read-models';

/** The fresh fold is written to session-private copies of the live tables: nothing the service reads is touched. */
const freshTables = (model: ReadModel) => renamedTables(model.tables, (live) => `verify_${live}`);

/** The model's view table: one row per stream. */
const viewTable = (model: ReadModel, tables = model.tables) => tables[model.view.role];

/** The read model whose view holds the stream's row, if any. */
const modelOfStream = (streamId: string) => READ_MODELS.find((m) => streamId.startsWith(m.view.streamPrefix));

export interface ViewDifference {
  id: string;
  /** The columns whose value differs from the fresh fold's. */
  columns: string[];
}

export interface ViewReport {
  /** The read model's name. */
  view: string;
  rowsChecked: number;
  /** Rows that differ from a fresh fold of their stream, up to the row's own version. */
  differing: ViewDifference[];
  /** Streams the projection has handled (up to its checkpoint) whose fold gives a row the view lacks. */
  missing: string[];
  /** Rows with no stream behind them. */
  withoutStream: string[];
}

export interface VerifyReport {
  events: number;
  streams: number;
  views: ViewReport[];
}

export function isHealthy(report: VerifyReport): boolean {
  return report.views.every((v) => v.differing.length === 0 && v.missing.length === 0 && v.withoutStream.length === 0);
}

/** One line per view, then the rows at fault (at most `listed` of each kind). */
export function describeReport(report: VerifyReport, listed = 20): string[] {
  const lines = [`${report.events} events in ${report.streams} streams folded afresh`];
  for (const v of report.views) {
    lines.push(`${v.view}: ${v.rowsChecked} rows checked, ${v.differing.length} differ, ${v.missing.length} missing, ${v.withoutStream.length} without a stream`);
    for (const d of v.differing.slice(0, listed)) lines.push(`  differs ${d.id}: ${d.columns.join(', ')}`);
    for (const id of v.missing.slice(0, listed)) lines.push(`  missing ${id}`);
    for (const id of v.withoutStream.slice(0, listed)) lines.push(`  without a stream ${id}`);
  }
  lines.push(isHealthy(report) ? 'read models match their streams' : 'read models differ from their streams');
  return lines;
}

type Row = Record<string, unknown> & { id: string; version: number };

/** Each read model's view rows and checkpoint, read in one snapshot (a model's rows and checkpoint commit together). */
async function liveSnapshot(pool: Pool): Promise<Map<string, { checkpoint: GlobalPosition; rows: Map<string, Row> }>> {
  return inTransaction(pool, async (client) => {
    await client.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const snapshot = new Map<string, { checkpoint: GlobalPosition; rows: Map<string, Row> }>();
    for (const model of READ_MODELS) {
      const { rows: checkpointRows } = await client.query<{ position: string }>('SELECT position FROM checkpoints WHERE name = $1', [model.name]);
      const checkpoint = checkpointRows[0] ? parsePosition(checkpointRows[0].position) : START;
      snapshot.set(model.name, { checkpoint, rows: await rowsById(client, viewTable(model)) });
    }
    return snapshot;
  });
}

async function rowsById(client: PoolClient, table: string): Promise<Map<string, Row>> {
  const { rows } = await client.query<Row>(`SELECT * FROM ${table}`);
  return new Map(rows.map((row) => [row.id, row]));
}

/** Every event of the views' streams, grouped by stream in revision order. */
async function readStreams(store: PostgresEventStore, pageSize: number): Promise<{ events: number; streams: Map<string, RecordedEvent[]> }> {
  const streams = new Map<string, RecordedEvent[]>();
  let events = 0;
  for (let after: GlobalPosition = START; ; ) {
    const page = await store.readAll(after, pageSize);
    if (page.length === 0) return { events, streams };
    for (const event of page) {
      if (!modelOfStream(event.streamId)) continue;
      events++;
      const stream = streams.get(event.streamId) ?? [];
      stream.push(event);
      streams.set(event.streamId, stream);
    }
    after = page[page.length - 1].position;
  }
}

function differingColumns(live: Row, fresh: Row): string[] {
  const columns = new Set([...Object.keys(live), ...Object.keys(fresh)]);
  return [...columns].filter((column) => JSON.stringify(live[column]) !== JSON.stringify(fresh[column])).sort();
}

/**
 * `npm run verify-projections`: folds every stream afresh, with the projection's own code, into
 * private copies of the tables, and compares each view row with it. A row is folded up to its own
 * version (so a projector running meanwhile is no difference); a stream without a row is folded up
 * to the projection's checkpoint (events after it are simply not projected yet).
 */
export async function verifyProjections(options: { pool: Pool; databaseUrl: string; pageSize?: number }): Promise<VerifyReport> {
  const { pool, databaseUrl } = options;
  const store = new PostgresEventStore(pool, { databaseUrl });
  const live = await liveSnapshot(pool);
  const { events, streams } = await readStreams(store, options.pageSize ?? 5000);

  // Each stream up to what its row claims to carry, or up to its model's checkpoint when it has none.
  const toFold: RecordedEvent[] = [];
  for (const [streamId, stream] of streams) {
    const model = modelOfStream(streamId)!;
    const { checkpoint, rows } = live.get(model.name)!;
    const row = rows.get(streamId.slice(model.view.streamPrefix.length));
    toFold.push(...stream.filter((e) => (row ? e.revision < BigInt(row.version) : comparePositions(e.position, checkpoint) <= 0)));
  }
  toFold.sort((a, b) => comparePositions(a.position, b.position));

  const client = await pool.connect();
  try {
    for (const model of READ_MODELS) {
      const fresh = freshTables(model);
      for (const role of Object.keys(model.tables)) {
        await client.query(`CREATE TEMP TABLE ${fresh[role]} (LIKE ${model.tables[role]} INCLUDING ALL) ON COMMIT PRESERVE ROWS`);
      }
    }
    const pageSize = options.pageSize ?? 5000;
    for (let i = 0; i < toFold.length; i += pageSize) {
      await projectIntoEvery(client, toFold.slice(i, i + pageSize), (streamId) => store.readStream(streamId), freshTables);
    }
    const views: ViewReport[] = [];
    for (const model of READ_MODELS) {
      const fresh = await rowsById(client, viewTable(model, freshTables(model)));
      const liveRows = live.get(model.name)!.rows;
      const differing: ViewDifference[] = [];
      const withoutStream: string[] = [];
      for (const [id, row] of liveRows) {
        if (!streams.has(`${model.view.streamPrefix}${id}`)) withoutStream.push(id);
        else {
          const expected = fresh.get(id);
          const columns = expected ? differingColumns(row, expected) : ['(no row in the fresh fold)'];
          if (columns.length > 0) differing.push({ id, columns });
        }
      }
      const missing = [...fresh.keys()].filter((id) => !liveRows.has(id));
      views.push({ view: model.name, rowsChecked: liveRows.size, differing, missing, withoutStream });
    }
    return { events, streams: streams.size, views };
  } finally {
    const temporary = READ_MODELS.flatMap((model) => Object.values(freshTables(model)));
    await client.query(`DROP TABLE IF EXISTS ${temporary.join(', ')}`).catch(() => undefined);
    client.release();
  }
}

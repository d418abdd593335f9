import { Pool, PoolClient } from 'pg';

/**
 * The DDL of a rebuild, for one live table: a fresh copy beside it, its
 * indexes, the switch by renames, the old table's removal. Index and
 * constraint names follow the table: after the switch the live table carries
 * exactly the names its migrations gave it, so later migrations still find them.
 */
export interface TablePair {
  live: string;
  rebuild: string;
}

const MAX_IDENTIFIER = 63;
const REBUILD_SUFFIX = '_rebuild';
const OLD_SUFFIX = '_old';

function suffixed(name: string, suffix: string): string {
  if (name.length + suffix.length > MAX_IDENTIFIER) throw new Error(`${name}${suffix} is longer than PostgreSQL's ${MAX_IDENTIFIER} characters`);
  return `${name}${suffix}`;
}

export function oldTable(pair: TablePair): string {
  return suffixed(pair.live, OLD_SUFFIX);
}

interface IndexDefinition {
  name: string;
  definition: string;
  /** The index behind a primary key or unique constraint (created with the table: the projection's upserts need it). */
  constraint: string | null;
}

async function indexesOf(db: Pool | PoolClient, table: string): Promise<IndexDefinition[]> {
  const { rows } = await db.query<IndexDefinition>(
    `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS definition, pg_get_constraintdef(c.oid) AS constraint
     FROM pg_index x
     JOIN pg_class i ON i.oid = x.indexrelid
     LEFT JOIN pg_constraint c ON c.conindid = x.indexrelid AND c.contype IN ('p', 'u')
     WHERE x.indrelid = $1::regclass
     ORDER BY i.relname`,
    [table],
  );
  return rows;
}

/** The live index's definition, named and placed for the rebuild table. */
function rebuildIndexSql(index: IndexDefinition, pair: TablePair): string {
  const match = /^CREATE (UNIQUE )?INDEX \S+ ON (ONLY )?\S+ (.*)$/s.exec(index.definition);
  if (!match) throw new Error(`unexpected index definition: ${index.definition}`);
  return `CREATE ${match[1] ?? ''}INDEX ${suffixed(index.name, REBUILD_SUFFIX)} ON ${pair.rebuild} ${match[3]}`;
}

/**
 * A fresh, empty copy of the live table (columns, defaults, checks, primary
 * key) with only its constraint indexes: the other indexes are built once the
 * bulk of the feed is in, which is far cheaper than maintaining them row by row.
 * Leftovers of an interrupted run are dropped first.
 */
export async function createRebuildTable(pool: Pool, pair: TablePair): Promise<void> {
  await pool.query(`DROP TABLE IF EXISTS ${pair.rebuild}, ${oldTable(pair)}`);
  await pool.query(`CREATE TABLE ${pair.rebuild} (LIKE ${pair.live} INCLUDING ALL EXCLUDING INDEXES)`);
  for (const index of await indexesOf(pool, pair.live)) {
    if (index.constraint) await pool.query(`ALTER TABLE ${pair.rebuild} ADD CONSTRAINT ${suffixed(index.name, REBUILD_SUFFIX)} ${index.constraint}`);
  }
}

/** The live table's other indexes, on the rebuild table. */
export async function createRebuildIndexes(pool: Pool, pair: TablePair): Promise<void> {
  for (const index of await indexesOf(pool, pair.live)) {
    if (!index.constraint) await pool.query(rebuildIndexSql(index, pair));
  }
  await pool.query(`ANALYZE ${pair.rebuild}`);
}

/**
 * Inside the caller's transaction: the live table and its indexes become
 * `_old`, the rebuild table and its indexes take the live names. Renaming an
 * index renames its constraint too. A reader waiting on the lock resolves the
 * name again once this commits, so it reads the new table; none sees no table.
 */
export async function switchTable(client: PoolClient, pair: TablePair): Promise<void> {
  const liveIndexes = await indexesOf(client, pair.live);
  const rebuildNames = new Set((await indexesOf(client, pair.rebuild)).map((i) => i.name));
  const missing = liveIndexes.filter((i) => !rebuildNames.has(suffixed(i.name, REBUILD_SUFFIX)));
  if (missing.length > 0) throw new Error(`${pair.rebuild} lacks indexes of ${pair.live}: ${missing.map((i) => i.name).join(', ')}`);
  await client.query(`ALTER TABLE ${pair.live} RENAME TO ${oldTable(pair)}`);
  for (const index of liveIndexes) await client.query(`ALTER INDEX ${index.name} RENAME TO ${suffixed(index.name, OLD_SUFFIX)}`);
  await client.query(`ALTER TABLE ${pair.rebuild} RENAME TO ${pair.live}`);
  for (const index of liveIndexes) await client.query(`ALTER INDEX ${suffixed(index.name, REBUILD_SUFFIX)} RENAME TO ${index.name}`);
}

export async function dropOldTable(pool: Pool, pair: TablePair): Promise<void> {
  await pool.query(`DROP TABLE IF EXISTS ${oldTable(pair)}`);
}

import { createHash } from 'node:crypto';
import type { QueryConfig } from 'pg';

/** Each text's statement name, made once per process. */
const names = new Map<string, string>();

/**
 * A statement sent as a named prepared statement (node-pg's `name`): each connection has
 * PostgreSQL parse it once, and the server keeps its plan, so later runs skip parsing, and
 * planning where a generic plan does as well. On the hot paths (drafts, a publication's starts
 * and outcomes) parsing and planning were as much of PostgreSQL's time as running the statements:
 * pg_stat_statements put the planning alone at 40–60% of their execution time (README,
 * Benchmarks). The name is the text's digest, so one text is one statement on every connection.
 *
 * For hot statements only, each with a text from a small set (fixed, or composed from a few
 * fixed parts) and with its columns named:
 * - a connection keeps every statement it prepared for its life, in the server's memory;
 * - a prepared `SELECT *` fails once a migration adds a column ("cached plan must not change
 *   result type"), where named columns are simply planned again.
 * A connection pooler in front of PostgreSQL must keep prepared statements (PgBouncer 1.21 and
 * later with max_prepared_statements, or session pooling).
 */
export function prepared(text: string, values: unknown[]): QueryConfig {
  let name = names.get(text);
  if (name === undefined) {
    name = `p_${createHash('sha256').update(text).digest('base64url').slice(0, 32)}`;
    names.set(text, name);
  }
  return { name, text, values };
}

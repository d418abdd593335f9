import { Client } from 'pg';

/** What one app process has sent so far: SQL statements (every pg query) and NATS messages (its connection's stats). */
export interface AppCounters {
  sqlStatements: number;
  /** By the statement's first words (BENCH_SQL_BY_STATEMENT=1 only): where the statements come from. */
  sqlByStatement?: Record<string, number>;
  natsInMsgs: number;
  natsOutMsgs: number;
}

let statements = 0;
const byStatement = new Map<string, number>();
const BY_STATEMENT = process.env.BENCH_SQL_BY_STATEMENT === '1';

/**
 * Counts every statement this process sends to PostgreSQL (pg's Pool runs its
 * queries through Client.prototype.query). For the bench's app processes only:
 * installed before the apps load, it costs an increment per query.
 */
export function countSqlStatements(): () => number {
  const query = Client.prototype.query as (...args: unknown[]) => unknown;
  (Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (this: Client, ...args: unknown[]) {
    statements += 1;
    if (BY_STATEMENT) {
      const first = args[0] as string | { text?: string };
      const text = (typeof first === 'string' ? first : (first?.text ?? '?')).replace(/\s+/g, ' ').trim().slice(0, 60);
      byStatement.set(text, (byStatement.get(text) ?? 0) + 1);
    }
    return query.apply(this, args);
  };
  return () => statements;
}

/** The statements counted by their first words, when BENCH_SQL_BY_STATEMENT=1. */
export function sqlByStatement(): Record<string, number> | undefined {
  return BY_STATEMENT ? Object.fromEntries(byStatement) : undefined;
}

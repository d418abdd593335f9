import { Client } from 'pg';

/** What one app process has sent so far: SQL statements (every pg query) and NATS messages (its connection's stats). */
export interface AppCounters {
  sqlStatements: number;
  natsInMsgs: number;
  natsOutMsgs: number;
}

let statements = 0;

/**
 * Counts every statement this process sends to PostgreSQL (pg's Pool runs its
 * queries through Client.prototype.query). For the bench's app processes only:
 * installed before the apps load, it costs an increment per query.
 */
export function countSqlStatements(): () => number {
  const query = Client.prototype.query as (...args: unknown[]) => unknown;
  (Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (this: Client, ...args: unknown[]) {
    statements += 1;
    return query.apply(this, args);
  };
  return () => statements;
}

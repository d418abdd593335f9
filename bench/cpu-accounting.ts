import { Pool } from 'pg';
import type { AppCounters } from './app-counters';
import type { BenchNats, NatsTraffic } from './bench-nats';
import { cpuMsOf, syscallsOf } from './process-cpu';

/** What the accounting needs of the running service (startService's answer). */
interface Service {
  pids: Record<string, number>;
  counters(): Promise<Record<string, AppCounters>>;
}

/** Everything counted at one moment: each process's CPU so far, and the traffic between them. */
interface Sample {
  apps: Record<string, number>;
  /** Each PostgreSQL backend serving the bench database, by pid. */
  postgres: Map<number, number>;
  nats: number | null;
  /** Read- and write-class system calls of each app process so far. */
  appSyscalls: Record<string, number>;
  counters: Record<string, AppCounters>;
  database: { xactCommit: number; tupInserted: number; tupUpdated: number };
  natsTraffic: NatsTraffic | null;
}

/** CPU and traffic per operation between two samples. */
export interface CostPerOperation {
  operations: number;
  /** CPU ms per operation: each app process, their sum, PostgreSQL's backends, nats-server, and all of them. */
  cpuMs: { apps: Record<string, number>; appsTotal: number; postgres: number; nats: number | null; total: number };
  /** SQL statements the apps sent, and transactions the database committed, per operation. */
  sqlStatements: number;
  sqlStatementsByApp: Record<string, number>;
  transactions: number;
  rowsWritten: number;
  /** NATS messages per operation: sent by the apps (their connections' stats), and through the server (its /varz: in + out). */
  natsMessagesSent: number;
  natsMessagesSentByApp: Record<string, number>;
  natsServerMessages: number | null;
  /** Read- and write-class system calls per operation (sockets included): each app process, and their sum. */
  syscallsByApp: Record<string, number>;
  syscalls: number;
  /** Per operation, by the statement's first words and app (BENCH_SQL_BY_STATEMENT=1 only). */
  sqlByStatement?: Record<string, number>;
}

/**
 * CPU per operation of every process the service runs on, from /proc/<pid>/stat
 * (utime + stime) before and after: each app, PostgreSQL's backends serving the
 * bench database (pg_stat_activity; a backend that ends within the window is
 * lost, the pools keep theirs), and the bench's own nats-server. Two commits'
 * figures compare even on a noisy machine: CPU spent per operation does not
 * depend much on what else the cores are doing, throughput does.
 */
export class CpuAccounting {
  constructor(
    private readonly service: Service,
    private readonly pool: Pool,
    private readonly nats: BenchNats | null,
  ) {}

  async sample(): Promise<Sample> {
    const [{ rows: backends }, { rows: database }, counters, natsTraffic] = await Promise.all([
      this.pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()'),
      this.pool.query<{ xact_commit: string; tup_inserted: string; tup_updated: string }>(
        'SELECT xact_commit, tup_inserted, tup_updated FROM pg_stat_database WHERE datname = current_database()',
      ),
      this.service.counters(),
      this.nats?.traffic() ?? Promise.resolve(null),
    ]);
    const postgres = new Map<number, number>();
    for (const { pid } of backends) {
      const ms = cpuMsOf(pid);
      if (ms !== null) postgres.set(pid, ms);
    }
    return {
      apps: Object.fromEntries(Object.entries(this.service.pids).map(([app, pid]) => [app, cpuMsOf(pid) ?? NaN])),
      postgres,
      nats: this.nats ? cpuMsOf(this.nats.pid) : null,
      appSyscalls: Object.fromEntries(Object.entries(this.service.pids).map(([app, pid]) => [app, syscallsOf(pid) ?? NaN])),
      counters,
      database: { xactCommit: Number(database[0].xact_commit), tupInserted: Number(database[0].tup_inserted), tupUpdated: Number(database[0].tup_updated) },
      natsTraffic,
    };
  }

  /** Runs `work` (which performs `operations` operations) between two samples. */
  async around<T>(operations: number, work: () => Promise<T>): Promise<{ result: T; cost: CostPerOperation }> {
    // pg_stat_database is updated when a backend's transaction ends, at most every 500 ms (PGSTAT_MIN_INTERVAL in 15): let it settle.
    const before = await this.sample();
    const result = await work();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const after = await this.sample();
    return { result, cost: costBetween(before, after, operations) };
  }
}

function costBetween(before: Sample, after: Sample, operations: number): CostPerOperation {
  const per = (value: number) => value / operations;
  const apps = Object.fromEntries(Object.keys(after.apps).map((app) => [app, per(after.apps[app] - before.apps[app])]));
  const appsTotal = Object.values(apps).reduce((a, b) => a + b, 0);
  let postgresMs = 0;
  // A backend that started within the window counts from zero.
  for (const [pid, ms] of after.postgres) postgresMs += ms - (before.postgres.get(pid) ?? 0);
  const postgres = per(postgresMs);
  const nats = after.nats !== null && before.nats !== null ? per(after.nats - before.nats) : null;
  const sqlStatementsByApp = Object.fromEntries(Object.keys(after.counters).map((app) => [app, per(after.counters[app].sqlStatements - before.counters[app].sqlStatements)]));
  const natsMessagesSentByApp = Object.fromEntries(Object.keys(after.counters).map((app) => [app, per(after.counters[app].natsOutMsgs - before.counters[app].natsOutMsgs)]));
  const traffic = after.natsTraffic && before.natsTraffic ? per(after.natsTraffic.inMsgs - before.natsTraffic.inMsgs + (after.natsTraffic.outMsgs - before.natsTraffic.outMsgs)) : null;
  const syscallsByApp = Object.fromEntries(Object.keys(after.appSyscalls).map((app) => [app, per(after.appSyscalls[app] - before.appSyscalls[app])]));
  return {
    operations,
    syscallsByApp,
    syscalls: Object.values(syscallsByApp).reduce((a, b) => a + b, 0),
    cpuMs: { apps, appsTotal, postgres, nats, total: appsTotal + postgres + (nats ?? 0) },
    sqlStatements: Object.values(sqlStatementsByApp).reduce((a, b) => a + b, 0),
    sqlStatementsByApp,
    // Less the sampling's own statements (two, each its own transaction), negligible over thousands of operations.
    transactions: per(after.database.xactCommit - before.database.xactCommit),
    rowsWritten: per(after.database.tupInserted - before.database.tupInserted + (after.database.tupUpdated - before.database.tupUpdated)),
    natsMessagesSent: Object.values(natsMessagesSentByApp).reduce((a, b) => a + b, 0),
    natsMessagesSentByApp,
    natsServerMessages: traffic,
    sqlByStatement: statementsBetween(before.counters, after.counters, operations),
  };
}

function statementsBetween(before: Record<string, AppCounters>, after: Record<string, AppCounters>, operations: number): Record<string, number> | undefined {
  if (!Object.values(after).some((c) => c.sqlByStatement)) return undefined;
  const per: Record<string, number> = {};
  for (const [app, counters] of Object.entries(after)) {
    for (const [text, count] of Object.entries(counters.sqlByStatement ?? {})) {
      const delta = (count - (before[app].sqlByStatement?.[text] ?? 0)) / operations;
      if (delta > 0.005) per[`${app}: ${text}`] = Math.round(delta * 1000) / 1000;
    }
  }
  return Object.fromEntries(Object.entries(per).sort(([, a], [, b]) => b - a));
}

/** The cost as a few lines of text, for the bench's table. */
export function formatCost(label: string, cost: CostPerOperation): string {
  const ms = (value: number | null) => (value === null ? '-' : value.toFixed(3));
  const apps = Object.entries(cost.cpuMs.apps).map(([app, value]) => `${app} ${ms(value)}`).join(', ');
  const sqlByApp = Object.entries(cost.sqlStatementsByApp).map(([app, value]) => `${app} ${value.toFixed(2)}`).join(', ');
  const natsByApp = Object.entries(cost.natsMessagesSentByApp).map(([app, value]) => `${app} ${value.toFixed(2)}`).join(', ');
  const syscallsByApp = Object.entries(cost.syscallsByApp).map(([app, value]) => `${app} ${value.toFixed(2)}`).join(', ');
  return [
    `CPU per ${label} (ms, over ${cost.operations}): all ${ms(cost.cpuMs.total)} = apps ${ms(cost.cpuMs.appsTotal)} (${apps}) + PostgreSQL ${ms(cost.cpuMs.postgres)} + nats-server ${ms(cost.cpuMs.nats)}`,
    `SQL per ${label}: ${cost.sqlStatements.toFixed(2)} statements (${sqlByApp}), ${cost.transactions.toFixed(2)} transactions, ${cost.rowsWritten.toFixed(2)} rows written`,
    `NATS per ${label}: ${cost.natsMessagesSent.toFixed(2)} messages sent by the apps (${natsByApp}), ${cost.natsServerMessages === null ? '-' : cost.natsServerMessages.toFixed(2)} in + out at the server`,
    `System calls per ${label} (read and write class): ${cost.syscalls.toFixed(2)} by the apps (${syscallsByApp})`,
    ...(cost.sqlByStatement ? Object.entries(cost.sqlByStatement).map(([text, value]) => `  ${value.toFixed(3)}  ${text}`) : []),
  ].join('\n');
}

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface, Interface } from 'node:readline';
import { Client, Pool } from 'pg';
import { createPool, migrate } from '@app/database';
import { AccountStore, TokenCipher } from '@app/accounts';
import { WorkspaceStore } from '@app/workspaces';
import type { AppCounters } from './app-counters';

/** PostgreSQL server the benches create their database on, and the NATS they use. */
export const SERVER = process.env.BENCH_DATABASE_SERVER ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

/** One statement on its own connection: to the server's maintenance database, or to `url`. */
export async function adminQuery(sql: string, url = SERVER): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  await client.query(sql);
  await client.end();
}

export interface BenchDatabase {
  url: string;
  pool: Pool;
  store: WorkspaceStore;
  accounts: AccountStore;
  tokenKey: string;
  drop(): Promise<void>;
}

/**
 * Each app process's pool (BENCH_APP_POOL_SIZE, default 10): the machine's PostgreSQL allows 100
 * connections, shared with every other engineer's tests, and five apps at 20 each ran out of them.
 */
const APP_POOL_SIZE = process.env.BENCH_APP_POOL_SIZE ?? '10';

/** A fresh, migrated database for one bench run. */
export async function createBenchDatabase(poolSize: number): Promise<BenchDatabase> {
  const name = `bench_${Date.now().toString(36)}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  await migrate(url.toString());
  const pool = createPool(url.toString(), poolSize);
  const tokenKey = randomBytes(32).toString('base64');
  return {
    url: url.toString(),
    pool,
    tokenKey,
    store: new WorkspaceStore(pool),
    accounts: new AccountStore(pool, new TokenCipher(Buffer.from(tokenKey, 'base64'))),
    async drop() {
      await pool.end();
      await new Promise((r) => setTimeout(r, 500));
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/**
 * The service under benchmark: one process per app, as in production, so the
 * load generator shares no event loop with it. The gateway must come last.
 * `namespace` is its NATS namespace (NATS_NAMESPACE): what names its JetStream stream.
 */
export async function startService(db: BenchDatabase, apps: string[], env: Record<string, string> = {}, natsUrl = NATS_URL) {
  const namespace = `bench${randomBytes(3).toString('hex')}`;
  const processes: BenchApp[] = [];
  for (const app of apps) processes.push(await startApp(app, db, namespace, env, natsUrl));
  // pids: each app's process, for its memory (/proc/<pid>/status) and CPU (/proc/<pid>/stat).
  const pids = Object.fromEntries(processes.map((p) => [p.app, p.pid]));
  return {
    url: processes[processes.length - 1].url,
    namespace,
    pids,
    /** Each app's SQL statements and NATS messages so far. */
    counters: async () => Object.fromEntries(await Promise.all(processes.map(async (p) => [p.app, await p.counters()] as const))),
    stop: () => processes.forEach((p) => p.stop()),
  };
}

interface BenchApp {
  app: string;
  pid: number;
  url: string;
  counters: () => Promise<AppCounters>;
  stop: () => void;
}

async function startApp(app: string, db: BenchDatabase, namespace: string, env: Record<string, string>, natsUrl: string): Promise<BenchApp> {
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE] : [];
  const child = spawn(process.execPath, [...profile, join(__dirname, 'stack-process.js'), app], {
    // The benches measure the service, not its rate limits: one key sends thousands of requests a minute.
    env: { ...process.env, RATE_LIMIT_GENERAL_PER_MINUTE: '0', ...env, DATABASE_URL: db.url, NATS_URL: natsUrl, NATS_NAMESPACE: namespace, TOKEN_ENCRYPTION_KEY: db.tokenKey, DATABASE_POOL_SIZE: APP_POOL_SIZE },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: Interface = createInterface({ input: child.stdout! });
  const [line] = (await once(lines, 'line')) as [string];
  // The process answers each `counters` line with one line `counters <json>`, in order (other lines are its logs).
  const answers: Array<(counters: AppCounters) => void> = [];
  lines.on('line', (text) => {
    if (text.startsWith('counters ')) answers.shift()?.(JSON.parse(text.slice('counters '.length)) as AppCounters);
  });
  const counters = () =>
    new Promise<AppCounters>((resolve) => {
      answers.push(resolve);
      child.stdin!.write('counters\n');
    });
  return { app, pid: child.pid!, url: (JSON.parse(line) as { url: string }).url, counters, stop: () => child.kill('SIGTERM') };
}

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client, Pool } from 'pg';
import { createPool, migrate } from '@app/database';
import { AccountStore, TokenCipher } from '@app/accounts';
import { WorkspaceStore } from '@app/workspaces';

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
export async function startService(db: BenchDatabase, apps: string[], env: Record<string, string> = {}) {
  const namespace = `bench${randomBytes(3).toString('hex')}`;
  const processes: Array<{ app: string; pid: number; url: string; stop: () => void }> = [];
  for (const app of apps) processes.push(await startApp(app, db, namespace, env));
  // pids: each app's process, for its memory (/proc/<pid>/status).
  const pids = Object.fromEntries(processes.map((p) => [p.app, p.pid]));
  return { url: processes[processes.length - 1].url, namespace, pids, stop: () => processes.forEach((p) => p.stop()) };
}

async function startApp(app: string, db: BenchDatabase, namespace: string, env: Record<string, string>) {
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE] : [];
  const child = spawn(process.execPath, [...profile, join(__dirname, 'stack-process.js'), app], {
    // The benches measure the service, not its rate limits: one key sends thousands of requests a minute.
    env: { ...process.env, RATE_LIMIT_GENERAL_PER_MINUTE: '0', ...env, DATABASE_URL: db.url, NATS_URL, NATS_NAMESPACE: namespace, TOKEN_ENCRYPTION_KEY: db.tokenKey, DATABASE_POOL_SIZE: '20' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  return { app, pid: child.pid!, url: (JSON.parse(line) as { url: string }).url, stop: () => child.kill('SIGTERM') };
}

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { adminQuery, SERVER } from './bench-environment';
import { parentOf, reapedChildrenCpuMsOf } from './process-cpu';

const run = promisify(execFile);

/** The single-row insert each pgbench transaction runs: the row a draft's append is about the size of. */
const INSERT_SCRIPT = "INSERT INTO bench_baseline (id, workspace_id, content) VALUES (gen_random_uuid(), '00000000-0000-0000-0000-000000000001', 'Hello from the bench');\n";

export interface PgbenchFigure {
  clients: number;
  seconds: number;
  perSecond: number;
  /**
   * CPU per insert of pgbench itself and of the PostgreSQL backends that served
   * it: the same run's unit for what one operation of ours costs, so figures
   * from a slower machine still compare (CPU per draft / this = how many plain
   * inserts' worth of CPU a draft costs).
   */
  cpuMsPerInsert: number;
}

/** Whether pgbench (it ships with the PostgreSQL client) is on the PATH. */
export async function hasPgbench(): Promise<boolean> {
  try {
    await run('pgbench', ['--version']);
    return true;
  } catch {
    return false;
  }
}

/**
 * PostgreSQL's own insert rate on this server: pgbench, `clients` connections on
 * two threads for `seconds`, one single-row INSERT per transaction, into a
 * scratch database created for it and dropped after. Its tps (without the
 * initial connection time) is the rate.
 */
export async function pgbenchInsertRate(clients: number, seconds: number): Promise<PgbenchFigure> {
  const name = `bench_pgbench_${Date.now().toString(36)}`;
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  const dir = mkdtempSync(join(tmpdir(), 'pgbench-'));
  await adminQuery(`CREATE DATABASE ${name}`);
  try {
    await adminQuery('CREATE TABLE bench_baseline (id uuid PRIMARY KEY, workspace_id uuid NOT NULL, content text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())', url.toString());
    const script = join(dir, 'insert.sql');
    writeFileSync(script, INSERT_SCRIPT);
    // Both are counted once their processes have ended and been waited for: pgbench by this process, its backends by the postmaster.
    const postmaster = await postmasterPid(url.toString());
    const reaped = () => (reapedChildrenCpuMsOf(process.pid) ?? 0) + (reapedChildrenCpuMsOf(postmaster) ?? 0);
    const cpuBefore = reaped();
    const { stdout } = await run('pgbench', ['-n', '-c', String(clients), '-j', '2', '-T', String(seconds), '-f', script, url.toString()]);
    // The backends end as pgbench disconnects: give the postmaster a moment to reap them.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const cpuMs = reaped() - cpuBefore;
    const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout);
    const processed = /number of transactions actually processed: (\d+)/.exec(stdout);
    if (!tps || !processed) throw new Error(`pgbench printed no tps:\n${stdout}`);
    return { clients, seconds, perSecond: Number(tps[1]), cpuMsPerInsert: cpuMs / Number(processed[1]) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

/** The postmaster's pid: the parent of the server's checkpointer (this machine's server runs beside the bench). */
async function postmasterPid(url: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'");
    const parent = rows.length ? parentOf(rows[0].pid) : null;
    if (!parent) throw new Error('cannot find the PostgreSQL server process (is it on this machine?)');
    return parent;
  } finally {
    await client.end();
  }
}

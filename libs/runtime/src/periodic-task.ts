import { Logger } from '@nestjs/common';

/**
 * Runs `work` every `intervalMs`, never two at once, and lets shutdown wait for
 * the run in hand. For the scheduler's passes; nothing is kept between runs.
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly name: string,
    private readonly intervalMs: number,
    private readonly work: () => Promise<unknown>,
    private readonly logger = new Logger(name),
  ) {}

  start(): void {
    this.timer ??= setInterval(() => {
      this.running ??= this.work()
        .then(() => undefined)
        .catch((error: unknown) => this.logger.warn(`${this.name} failed: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => (this.running = null));
    }, this.intervalMs);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}

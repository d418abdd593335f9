import { Logger } from '@nestjs/common';

/**
 * Runs `work` every `intervalMs`, never two at once, and lets shutdown wait for
 * the run in hand. For the scheduler's passes; nothing is kept between runs.
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  /** The one extra run asked for (runIn), and whether it came while a run was going on. */
  private extra: NodeJS.Timeout | null = null;
  private runAgain = false;

  constructor(
    private readonly name: string,
    private readonly intervalMs: number,
    private readonly work: () => Promise<unknown>,
    private readonly logger = new Logger(name),
  ) {}

  start(): void {
    this.timer ??= setInterval(() => this.run(), this.intervalMs);
  }

  /**
   * Runs the work once more in `ms`, between the interval's runs (the latest call replaces an
   * earlier one). A run going on then is followed by this one at once, not skipped as an
   * interval's run is: the caller asked for a run that starts no earlier than that moment.
   */
  runIn(ms: number): void {
    if (!this.timer) return;
    if (this.extra) clearTimeout(this.extra);
    this.extra = setTimeout(() => {
      this.extra = null;
      if (this.running) this.runAgain = true;
      else this.run();
    }, ms);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.extra) clearTimeout(this.extra);
    this.timer = null;
    this.extra = null;
    await this.running;
  }

  private run(): void {
    this.running ??= this.work()
      .then(() => undefined)
      .catch((error: unknown) => this.logger.warn(`${this.name} failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        this.running = null;
        if (this.runAgain && this.timer) {
          this.runAgain = false;
          this.run();
        }
      });
  }
}

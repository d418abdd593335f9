import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { RateLimitStore } from '@app/rate-limits';
import { PeriodicTask } from '@app/runtime';

const SWEEP_INTERVAL_MS = 5 * 60_000;

/**
 * Deletes idle keys' counters every few minutes. Each replica sweeps; the
 * delete is idempotent and the table holds one row per active key and policy.
 */
@Injectable()
export class RateLimitSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly task: PeriodicTask;

  constructor(store: RateLimitStore, config: AppConfig) {
    this.task = new PeriodicTask('rate-limit sweep', SWEEP_INTERVAL_MS, () => store.sweep(config.now()));
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.task.stop();
  }
}

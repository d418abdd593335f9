import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Pool } from 'pg';
import { AppConfig } from '@app/config';
import { FireScheduledPostCommand } from '@app/contracts';
import { PG_POOL } from '@app/database';
import { CommandClient } from '@app/messaging';

const BATCH = 200;

/**
 * Fires scheduled posts when they are due. The read model only says which
 * posts to look at; the Post decider decides (publish, expire when more than
 * six hours late, or nothing if it was edited, deleted or already fired), so
 * any number of replicas can run this and a post still fires once. Nothing is
 * kept in memory: after a restart the next tick finds whatever is due.
 */
@Injectable()
export class DuePostsScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(DuePostsScheduler.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly config: AppConfig,
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly commands: CommandClient,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.running ??= this.tick()
        .then(() => undefined)
        .catch((error: unknown) => this.logger.warn(`scheduler tick failed: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => (this.running = null));
    }, this.config.schedulerIntervalMs);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One pass: every post whose time has come, oldest first. */
  async tick(): Promise<number> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT id FROM post_views WHERE status = 'scheduled' AND scheduled_at <= $1 ORDER BY scheduled_at LIMIT ${BATCH}`,
      [this.config.now()],
    );
    for (const { id } of rows) {
      const command: FireScheduledPostCommand = { postId: id };
      await this.commands.request('posts.fire-scheduled', command).catch((error: unknown) => {
        this.logger.warn(`post ${id} not fired this time: ${error instanceof Error ? error.message : String(error)}`);
      });
    }
    return rows.length;
  }
}

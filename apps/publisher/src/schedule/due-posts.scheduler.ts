import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Pool } from 'pg';
import { AppConfig } from '@app/config';
import { PG_POOL } from '@app/database';
import { CommandClient } from '@app/messaging';
import { PeriodicTask } from '@app/runtime';

const BATCH = 200;
/** The least time between two passes the scheduler asks for itself (posts due a few milliseconds apart fire together). */
const MIN_WAKE_GAP_MS = 20;

/**
 * The publication clock. Each pass fires the scheduled posts that are due and
 * closes publications that have run past every bound (a publisher that died on
 * its last delivery), so every post reaches a final state.
 *
 * The read model only says which posts to look at; the Post decider decides
 * (publish, expire when more than six hours late, or nothing if the post was
 * edited, deleted or already fired), so any number of replicas can run this
 * and a post still fires once. Nothing is kept in memory: after a restart the
 * next pass finds whatever is due. Each pass also wakes the scheduler when the
 * next post falls due, if that comes before the next pass.
 */
@Injectable()
export class DuePostsScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(DuePostsScheduler.name);
  private readonly task: PeriodicTask;

  constructor(
    private readonly config: AppConfig,
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly commands: CommandClient,
  ) {
    this.task = new PeriodicTask('scheduler pass', config.schedulerIntervalMs, () => this.tick(), this.logger);
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.task.stop();
  }

  /**
   * One pass; returns how many posts it sent a command for. Every due post is fired in the pass, a
   * page of BATCH at a time (keyset on scheduled_at, id: a page fired but not yet projected is not
   * read again), each page's commands sent at once: the posts service decides them together and
   * appends them in a few statements (group commit), so the top of the hour is not one post at a time.
   * The pages read on to the next pass's time: the first post not yet due, if any, is fired at its
   * moment by a pass asked for then (the top of the hour starts on the hour); one scheduled closer than
   * a pass ahead after this one looked is found by the next pass, as before.
   */
  async tick(): Promise<number> {
    const now = this.config.now();
    const nextPass = new Date(now.getTime() + this.config.schedulerIntervalMs);
    let fired = 0;
    let nextDue: Date | null = null;
    let after: { scheduledAt: Date; id: string } | null = null;
    for (;;) {
      const page: { rows: Array<{ id: string; scheduled_at: Date; due: boolean }> } = await this.pool.query<{ id: string; scheduled_at: Date; due: boolean }>(
        `SELECT id, scheduled_at, scheduled_at <= $2 AS due FROM post_views WHERE status = 'scheduled' AND scheduled_at <= $1
           ${after ? 'AND (scheduled_at, id) > ($3, $4)' : ''}
         ORDER BY scheduled_at, id LIMIT ${BATCH}`,
        after ? [nextPass, now, after.scheduledAt, after.id] : [nextPass, now],
      );
      // In scheduled_at order: the due posts come first.
      const due = page.rows.filter((row) => row.due);
      await this.send('posts.fire-scheduled', due);
      fired += due.length;
      if (due.length < page.rows.length) nextDue = page.rows[due.length].scheduled_at;
      if (nextDue || page.rows.length < BATCH) break;
      const last = page.rows[page.rows.length - 1];
      after = { scheduledAt: last.scheduled_at, id: last.id };
    }
    const stalled = await this.pool.query<{ id: string }>(
      `SELECT id FROM post_views WHERE status = 'publishing' AND publishing_since <= $1 ORDER BY publishing_since LIMIT ${BATCH}`,
      [new Date(now.getTime() - this.config.publishAbandonAfterMs)],
    );
    await this.send('posts.abandon-publication', stalled.rows);
    // A millisecond past it: a timer may fire a little before the clock reads its moment.
    if (nextDue) this.task.runIn(Math.max(MIN_WAKE_GAP_MS, nextDue.getTime() - this.config.now().getTime() + 1));
    return fired + stalled.rows.length;
  }

  private async send(name: 'posts.fire-scheduled' | 'posts.abandon-publication', posts: Array<{ id: string }>): Promise<void> {
    await Promise.all(
      posts.map(({ id }) =>
        this.commands.request(name, { postId: id }).catch((error: unknown) => {
          this.logger.warn(`${name} ${id} not done this pass: ${error instanceof Error ? error.message : String(error)}`);
        }),
      ),
    );
  }
}

import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { FEED_LAG_COUNT_LIMIT, trackFeedLag } from '@app/observability';
import { BatchHandler, EventStore, FeedSubscription } from './event-store.port';
import { GlobalPosition } from '@app/contracts';

export interface FeedProcessorOptions {
  /** Names the leadership lock (and the lag metric). */
  name: string;
  store: EventStore;
  /** Where to follow the feed from, asked each time leadership is taken (another leader may have moved it): the follower's durable checkpoint. */
  resumeFrom: () => Promise<GlobalPosition>;
  /** Leadership is a session advisory lock on its own connection to this database. */
  databaseUrl: string;
  /** Handles a batch and saves the checkpoint past it (in its own transaction where it has one). */
  handle: BatchHandler;
  /** Events per batch (the store's default when absent). */
  batchSize?: number;
  /**
   * After a batch, the next read waits until this long after the previous one (0, the default: at
   * once). A follower with no read-your-writes bound trades this latency for fewer, larger batches:
   * fewer reads, fewer checkpoint saves. Reads after an empty one still wait only for a wake-up.
   */
  minReadIntervalMs?: number;
  retryDelayMs?: number;
}

/**
 * Runs one follower of the global feed (the relay, a projection) with exactly
 * one active instance across replicas: it holds a Postgres advisory lock while
 * it works, resumes from its durable checkpoint, and resubscribes after any
 * failure — so a crash at any point replays from the checkpoint, never skips.
 */
export class FeedProcessor {
  private readonly logger: Logger;
  private stopped = false;
  private subscription: FeedSubscription | null = null;
  private lockClient: Client | null = null;
  private loop: Promise<void> | null = null;
  private wakeRetry: (() => void) | null = null;
  /** Where this leader has handled the feed up to (null when not leading). */
  private position: GlobalPosition | null = null;
  private untrackLag: (() => void) | null = null;
  isLeader = false;
  /** Why leading last failed, until the lock is asked for again (readiness); null while leading or standing by. */
  failure: string | null = null;

  constructor(private readonly options: FeedProcessorOptions) {
    this.logger = new Logger(`FeedProcessor:${options.name}`);
  }

  start(): void {
    this.untrackLag ??= trackFeedLag(this.options.name, () => this.lag());
    this.loop ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.untrackLag?.();
    this.wakeRetry?.();
    await this.subscription?.stop();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.lead();
      } catch (error) {
        this.failure = error instanceof Error ? error.message : String(error);
        if (!this.stopped) this.logger.warn(`restarting after: ${this.failure}`);
      } finally {
        this.isLeader = false;
        this.position = null;
        // Leadership lost (its connection ended): the subscription must not go on writing beside the next leader.
        await this.subscription?.stop();
        this.subscription = null;
        await this.lockClient?.end().catch(() => undefined);
        this.lockClient = null;
      }
      if (!this.stopped) await this.pause(this.options.retryDelayMs ?? 1000);
    }
  }

  private async lead(): Promise<void> {
    const client = new Client({ connectionString: this.options.databaseUrl });
    this.lockClient = client;
    const lockLost = new Promise<never>((_, reject) => {
      client.on('error', reject);
      client.on('end', () => reject(new Error('leadership connection closed')));
    });
    lockLost.catch(() => undefined);
    await client.connect();
    while (!this.stopped) {
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [`feed:${this.options.name}`]);
      this.failure = null;
      if (rows[0].locked) break;
      await this.pause(this.options.retryDelayMs ?? 1000);
    }
    if (this.stopped) return;
    this.isLeader = true;
    const from = await this.options.resumeFrom();
    // Stopped while loading: stop() found no subscription to end, so none may start now.
    if (this.stopped) return;
    this.position = from;
    this.subscription = this.options.store.subscribeToAll(
      from,
      async (events) => {
        const readAt = Date.now();
        await this.options.handle(events);
        this.position = events[events.length - 1].position;
        await this.gatherUntil(readAt + (this.options.minReadIntervalMs ?? 0));
      },
      { batchSize: this.options.batchSize },
    );
    await Promise.race([this.subscription.done, lockLost]);
  }

  /** Events stored after what this leader has handled (up to a limit), and the age of the oldest; null when not leading. */
  private async lag(): Promise<{ events: number; seconds: number } | null> {
    const position = this.position;
    if (!this.isLeader || !position) return null;
    return feedLagAfter(this.options.store, position);
  }

  /** The subscription reads again only once this handler returns: holding it back lets the next batch gather. */
  private async gatherUntil(time: number): Promise<void> {
    const wait = time - Date.now();
    if (wait > 0 && !this.stopped) await this.pause(wait);
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wakeRetry = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

/** Events stored after `position` (up to FEED_LAG_COUNT_LIMIT), and the age of the oldest in seconds: a follower's lag. */
export async function feedLagAfter(store: EventStore, position: GlobalPosition): Promise<{ events: number; seconds: number }> {
  const pending = await store.readAll(position, FEED_LAG_COUNT_LIMIT);
  return { events: pending.length, seconds: pending.length ? Math.max(0, (Date.now() - pending[0].createdAt.getTime()) / 1000) : 0 };
}

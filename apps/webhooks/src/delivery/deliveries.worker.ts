import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Pool } from 'pg';
import { AppConfig } from '@app/config';
import { PG_POOL } from '@app/database';
import { CheckpointStore, EVENT_STORE, EventStore, FeedProcessor } from '@app/event-store';
import { PeriodicTask } from '@app/runtime';
import { WEBHOOKS_FEED, WebhookDispatcher, WebhookFanout, webhookFeedHandler, WorkspacesWithEndpoints } from '@app/webhooks';

/**
 * The webhooks service's two loops. The feed follower reads the event store's
 * feed in batches (one replica leads; the others stand by), queues each batch's
 * deliveries in store order (so per endpoint, deliveries are queued in the order
 * the events were stored) and moves its checkpoint; a failure replays from the
 * checkpoint (queueing is idempotent). Delivery has no read-your-writes bound, so
 * reads are at least webhookFeedReadIntervalMs apart while events keep coming:
 * fewer, larger batches. The dispatch pass (every webhookDispatchIntervalMs, and
 * at once after an event was queued) sends what is due. Readiness fails while the
 * follower is not started or failing. The events of a workspace without endpoints
 * are skipped in memory (WorkspacesWithEndpoints); when one gains an endpoint,
 * what was skipped for it lately is taken again.
 */
@Injectable()
export class DeliveriesWorker implements OnApplicationBootstrap, OnModuleDestroy {
  readonly name = 'webhook events feed';
  private readonly logger = new Logger(DeliveriesWorker.name);
  private follower: FeedProcessor | null = null;
  private readonly passes: PeriodicTask;

  constructor(
    private readonly config: AppConfig,
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly fanout: WebhookFanout,
    private readonly dispatcher: WebhookDispatcher,
    private readonly workspaces: WorkspacesWithEndpoints,
  ) {
    this.passes = new PeriodicTask('webhook dispatch pass', config.webhookDispatchIntervalMs, () => this.dispatcher.pass(), this.logger);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.workspaces.onAdded((workspaceId) => {
      this.fanout
        .takeSkipped(workspaceId)
        .then((queued) => queued > 0 && this.kick())
        .catch((error: unknown) => this.logger.warn(`skipped events of ${workspaceId} not taken again: ${error instanceof Error ? error.message : String(error)}`));
    });
    await this.workspaces.start();
    const checkpoints = new CheckpointStore(this.pool);
    this.follower = new FeedProcessor({
      name: WEBHOOKS_FEED,
      store: this.store,
      resumeFrom: () => checkpoints.load(WEBHOOKS_FEED),
      databaseUrl: this.config.databaseUrl,
      handle: webhookFeedHandler(this.fanout, checkpoints, () => this.kick()),
      batchSize: this.config.feedBatchSize,
      minReadIntervalMs: this.config.webhookFeedReadIntervalMs,
    });
    this.follower.start();
    this.passes.start();
  }

  /** A pass now, not at the next tick: the lag from append to delivery is this service's work, not the interval. */
  kick(): void {
    this.dispatcher.pass().catch((error: unknown) => this.logger.warn(`dispatch pass failed: ${error instanceof Error ? error.message : String(error)}`));
  }

  /** Stop taking events, stop the passes, and let attempts in flight finish (each is bounded by the webhook timeout). */
  async onModuleDestroy(): Promise<void> {
    await this.follower?.stop();
    await this.workspaces.stop();
    await this.passes.stop();
    await this.dispatcher.stop();
  }

  async problem(): Promise<string | null> {
    return this.follower ? this.follower.failure : 'feed follower not started';
  }
}

import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { NatsConnection } from 'nats';
import { AppConfig } from '@app/config';
import { Subjects } from '@app/contracts';
import { ensureEventStream, EventConsumer, NATS_CONNECTION } from '@app/messaging';
import { PeriodicTask } from '@app/runtime';
import { WebhookDispatcher, WebhookFanout, WorkspacesWithEndpoints } from '@app/webhooks';

/** A consumed event is queued in a few queries; this bounds how long one may go without an ack. */
const INTAKE_ACK_WAIT_MS = 30_000;
const INTAKE_MAX_DELIVER = 10;

/**
 * The webhooks service's two loops. The durable `webhooks` consumer takes every
 * relayed event, one at a time in store order (so per endpoint, deliveries are
 * queued in the order the events were stored), queues its deliveries and acks;
 * a failure naks it for redelivery (queueing is idempotent). The dispatch pass
 * (every webhookDispatchIntervalMs, and at once after an event was queued) sends
 * what is due. Readiness fails while the consumer is not consuming. The events
 * of a workspace without endpoints are skipped in memory (WorkspacesWithEndpoints);
 * when one gains an endpoint, what was skipped for it lately is taken again.
 */
@Injectable()
export class DeliveriesWorker implements OnApplicationBootstrap, OnModuleDestroy {
  readonly name = 'webhook-events-consumer';
  private readonly logger = new Logger(DeliveriesWorker.name);
  private consumer: EventConsumer | null = null;
  private readonly passes: PeriodicTask;

  constructor(
    private readonly config: AppConfig,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly subjects: Subjects,
    private readonly fanout: WebhookFanout,
    private readonly dispatcher: WebhookDispatcher,
    private readonly workspaces: WorkspacesWithEndpoints,
  ) {
    this.passes = new PeriodicTask('webhook dispatch pass', config.webhookDispatchIntervalMs, () => this.dispatcher.pass(), this.logger);
  }

  async onApplicationBootstrap(): Promise<void> {
    await ensureEventStream(this.nc, this.subjects, this.config.natsDuplicateWindowMs);
    this.workspaces.onAdded((workspaceId) => {
      this.fanout
        .takeSkipped(workspaceId)
        .then((queued) => queued > 0 && this.kick())
        .catch((error: unknown) => this.logger.warn(`skipped events of ${workspaceId} not taken again: ${error instanceof Error ? error.message : String(error)}`));
    });
    await this.workspaces.start();
    this.consumer = await EventConsumer.start(this.nc, {
      stream: this.subjects.eventStreamName,
      durableName: 'webhooks',
      filterSubjects: [`${this.subjects.eventRoot}.>`],
      ackWaitMs: INTAKE_ACK_WAIT_MS,
      maxDeliver: INTAKE_MAX_DELIVER,
      maxInFlight: 1,
      handler: async ({ envelope }) => {
        if ((await this.fanout.take(envelope)) > 0) this.kick();
      },
      onError: (error, subject) => this.logger.error(`${subject}: ${error instanceof Error ? error.stack : String(error)}`),
    });
    this.passes.start();
  }

  /** A pass now, not at the next tick: the lag from append to delivery is the relay's and this service's work, not the interval. */
  kick(): void {
    this.dispatcher.pass().catch((error: unknown) => this.logger.warn(`dispatch pass failed: ${error instanceof Error ? error.message : String(error)}`));
  }

  /** Stop taking events, stop the passes, and let attempts in flight finish (each is bounded by the webhook timeout). */
  async onModuleDestroy(): Promise<void> {
    await this.consumer?.stop(INTAKE_ACK_WAIT_MS);
    await this.workspaces.stop();
    await this.passes.stop();
    await this.dispatcher.stop();
  }

  async problem(): Promise<string | null> {
    return this.consumer ? this.consumer.problem() : 'consumer not started';
  }
}

import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { NatsConnection } from 'nats';
import { AppConfig } from '@app/config';
import { Subjects } from '@app/contracts';
import { ensureEventStream, EventConsumer, NATS_CONNECTION } from '@app/messaging';
import { PublishRequestedHandler } from './publish/publish-requested.handler';

/**
 * PublishRequested events held at once across all replicas (max_ack_pending); each fans out to at most ten accounts.
 * A job spends its time waiting (the platform call, the commands and the relay around it, about 250 ms for a
 * 100 ms platform): at 64 the top-of-the-hour rush ran at about 200 posts a second (npm run bench:rush).
 */
const MAX_JOBS_IN_FLIGHT = 256;

/**
 * Runs the durable `publisher` consumer of PublishRequested, and says whether
 * it is consuming (readiness: a worker that never registered must not look healthy).
 */
@Injectable()
export class PublishRequestsWorker implements OnApplicationBootstrap, OnModuleDestroy {
  readonly name = 'publish-requests-consumer';
  private readonly logger = new Logger(PublishRequestsWorker.name);
  private consumer: EventConsumer | null = null;

  constructor(
    private readonly config: AppConfig,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly subjects: Subjects,
    private readonly handler: PublishRequestedHandler,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // The relay creates the stream too; whichever process starts first must find it.
    await ensureEventStream(this.nc, this.subjects, this.config.natsDuplicateWindowMs);
    this.consumer = await EventConsumer.start(this.nc, {
      stream: this.subjects.eventStreamName,
      durableName: 'publisher',
      filterSubjects: [`${this.subjects.eventRoot}.posts.PublishRequested`],
      ackWaitMs: this.config.publisherAckWaitMs,
      maxDeliver: this.config.publisherMaxDeliver,
      maxInFlight: MAX_JOBS_IN_FLIGHT,
      handler: (delivery) => this.handler.handle(delivery),
      onError: (error, subject) => this.logger.error(`${subject}: ${error instanceof Error ? error.stack : String(error)}`),
    });
  }

  /**
   * Before the NATS connection drains: stop taking events and give running jobs
   * one ack wait to finish; a job still running then is left unacked, and
   * redelivery reconciles it.
   */
  async onModuleDestroy(): Promise<void> {
    await this.consumer?.stop(this.config.publisherAckWaitMs);
  }

  /** Why publish requests are not being consumed, or null when they are. */
  async problem(): Promise<string | null> {
    return this.consumer ? this.consumer.problem() : 'consumer not started';
  }
}

import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { NatsConnection } from 'nats';
import { Pool } from 'pg';
import { AppConfig } from '@app/config';
import { Subjects } from '@app/contracts';
import { PG_POOL } from '@app/database';
import { RELAY_CHECKPOINT, RELAY_CHECKPOINT_EVERY_MS, relayToJetStream } from '@app/event-relay';
import { CheckpointStore, EVENT_STORE, EventStore, FeedProcessor, ThrottledCheckpoint } from '@app/event-store';
import { ensureEventStream, NATS_CONNECTION } from '@app/messaging';
import { READ_MODELS } from './read-models';
import { ReadModelsFollower } from './read-models-follower';

/**
 * Runs the feed followers of this process: one for all the read models (each
 * with its own checkpoint) and the relay to JetStream, apart so that a
 * JetStream outage never stops the read models. Each has one active instance
 * across replicas.
 */
@Injectable()
export class ProjectorService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ProjectorService.name);
  private readonly followers: { start(): void; stop(): Promise<void> }[] = [];
  private relayCheckpoint: ThrottledCheckpoint | null = null;

  constructor(
    private readonly config: AppConfig,
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly subjects: Subjects,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await ensureEventStream(this.nc, this.subjects, this.config.natsDuplicateWindowMs);
    const checkpoints = new CheckpointStore(this.pool);
    const relayCheckpoint = new ThrottledCheckpoint(checkpoints, RELAY_CHECKPOINT, RELAY_CHECKPOINT_EVERY_MS, (error) =>
      this.logger.warn(`the relay's checkpoint was not saved (saved with the next one): ${error instanceof Error ? error.message : String(error)}`),
    );
    this.relayCheckpoint = relayCheckpoint;
    // The relay resumes where it got to in this process, not at the lazily saved position behind it.
    const resumeRelay = async () => {
      await relayCheckpoint.flush();
      return checkpoints.load(RELAY_CHECKPOINT);
    };
    const common = { store: this.store, databaseUrl: this.config.databaseUrl, batchSize: this.config.feedBatchSize };
    this.followers.push(
      new ReadModelsFollower({ ...common, pool: this.pool, models: READ_MODELS }),
      new FeedProcessor({ ...common, name: RELAY_CHECKPOINT, resumeFrom: resumeRelay, handle: relayToJetStream(this.nc, this.subjects, relayCheckpoint) }),
    );
    for (const follower of this.followers) follower.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.followers.map((follower) => follower.stop()));
    // A stop sends nothing again on the next start: the relay's last position is saved now.
    await this.relayCheckpoint?.flush().catch((error: unknown) => this.logger.warn(`the relay's last checkpoint was not saved: ${error instanceof Error ? error.message : String(error)}`));
  }
}

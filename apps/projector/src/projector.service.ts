import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { NatsConnection } from 'nats';
import { Pool } from 'pg';
import { AppConfig } from '@app/config';
import { Subjects } from '@app/contracts';
import { inTransactionIfNeeded, PG_POOL } from '@app/database';
import { RELAY_CHECKPOINT, relayToJetStream } from '@app/event-relay';
import { CheckpointStore, EVENT_STORE, EventStore, FeedProcessor, formatPosition, RecordedEvent } from '@app/event-store';
import { ensureEventStream, NATS_CONNECTION } from '@app/messaging';
import { notifyProjectionAdvancedWith } from '@app/read-models';
import { ReadModel } from './read-model';
import { READ_MODELS } from './read-models';

/**
 * Runs the feed followers of this process: one per read model (each with its
 * own checkpoint) and the relay to JetStream. Each has one active instance
 * across replicas.
 */
@Injectable()
export class ProjectorService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly processors: FeedProcessor[] = [];

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
    const common = { store: this.store, checkpoints, databaseUrl: this.config.databaseUrl, batchSize: this.config.feedBatchSize };
    this.processors.push(
      ...READ_MODELS.map((model) => new FeedProcessor({ ...common, name: model.name, handle: (events) => this.project(model, events, checkpoints) })),
      new FeedProcessor({ ...common, name: RELAY_CHECKPOINT, handle: relayToJetStream(this.nc.jetstream(), this.subjects, checkpoints) }),
    );
    for (const processor of this.processors) processor.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.processors.map((p) => p.stop()));
  }

  /**
   * One transaction per batch: the rows and the checkpoint commit together, and waiters are told when
   * it commits (the checkpoint and the notification in one statement). A batch with nothing for the
   * model (no statement of its own) moves the checkpoint in that one statement alone.
   */
  private project(model: ReadModel, events: RecordedEvent[], checkpoints: CheckpointStore): Promise<void> {
    const position = events[events.length - 1].position;
    return inTransactionIfNeeded(
      this.pool,
      (client) => model.project(client, events, model.tables, (streamId) => this.store.readStream(streamId)),
      (client) => checkpoints.save(model.name, position, client, notifyProjectionAdvancedWith(model.name, formatPosition(position))),
    );
  }
}

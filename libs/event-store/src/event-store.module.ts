import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { Pool } from 'pg';
import { AppConfig } from '@app/config';
import { Subjects } from '@app/contracts';
import { PG_POOL } from '@app/database';
import { NATS_CONNECTION } from '@app/messaging';
import { NatsConnection } from 'nats';
import { AppendSignal } from './append-signal';
import { EVENT_STORE, EventStore } from './event-store.port';
import { EventStoreReadiness } from './event-store.readiness';
import { NatsAppendSignal } from './nats-append-signal';
import { PostgresEventStore } from './postgres-event-store';

/**
 * Chooses the event store adapter from configuration (EVENT_STORE=postgres | eventstoredb).
 * EventStoreDB is connected to and its version checked here: an unsupported or
 * unreachable server fails start-up with the reason.
 */
export async function createEventStore(config: AppConfig, pool: Pool, signal?: AppendSignal): Promise<EventStore> {
  switch (config.eventStore) {
    case 'postgres':
      return new PostgresEventStore(pool, { databaseUrl: config.databaseUrl, signal });
    case 'eventstoredb': {
      // Loaded only when chosen: the gRPC client costs ~300 ms to import.
      const { EventStoreDbEventStore } = require('./eventstoredb-event-store') as typeof import('./eventstoredb-event-store');
      return EventStoreDbEventStore.connect(config.eventStoreUrl!);
    }
  }
}

@Global()
@Module({
  providers: [
    {
      provide: EVENT_STORE,
      // Followers are woken over NATS where the process has a connection (every app does), with PostgreSQL's NOTIFY otherwise.
      inject: [AppConfig, PG_POOL, { token: NATS_CONNECTION, optional: true }, { token: Subjects, optional: true }],
      useFactory: async (config: AppConfig, pool: Pool, nc?: NatsConnection, subjects?: Subjects) =>
        createEventStore(config, pool, nc && subjects ? new NatsAppendSignal(nc, subjects.eventsAppended) : undefined),
    },
    EventStoreReadiness,
  ],
  exports: [EVENT_STORE, EventStoreReadiness],
})
export class EventStoreModule implements OnApplicationShutdown {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}

import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { Pool } from 'pg';
import { AppConfig } from '@app/config';
import { PG_POOL } from '@app/database';
import { eventsAppended } from '@app/observability';
import { EVENT_STORE, EventStore } from './event-store.port';
import { EventStoreReadiness } from './event-store.readiness';
import { PostgresEventStore } from './postgres-event-store';

/**
 * Chooses the event store adapter from configuration (EVENT_STORE=postgres | eventstoredb).
 * EventStoreDB is connected to and its version checked here: an unsupported or
 * unreachable server fails start-up with the reason.
 */
export async function createEventStore(config: AppConfig, pool: Pool): Promise<EventStore> {
  switch (config.eventStore) {
    case 'postgres':
      return new PostgresEventStore(pool, { databaseUrl: config.databaseUrl });
    case 'eventstoredb': {
      // Loaded only when chosen: the gRPC client costs ~300 ms to import.
      const { EventStoreDbEventStore } = require('./eventstoredb-event-store') as typeof import('./eventstoredb-event-store');
      return EventStoreDbEventStore.connect(config.eventStoreUrl!);
    }
  }
}

/** Counts what each append wrote (events_appended_total), whichever adapter is in use. */
function countingAppends(store: EventStore): EventStore {
  const append = store.append.bind(store);
  store.append = async (streamId, events, expected) => {
    const result = await append(streamId, events, expected);
    for (const event of events) eventsAppended.inc({ type: event.type });
    return result;
  };
  return store;
}

@Global()
@Module({
  providers: [
    { provide: EVENT_STORE, inject: [AppConfig, PG_POOL], useFactory: async (config: AppConfig, pool: Pool) => countingAppends(await createEventStore(config, pool)) },
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

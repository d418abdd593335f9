import { Inject, Injectable } from '@nestjs/common';
import type { ReadinessCheck } from '@app/health';
import { EVENT_STORE, EventStore } from './event-store.port';

/**
 * The event store answers: registered among READINESS_CHECKS by the apps that
 * use a store (readinessChecks(EventStoreReadiness, ...)), so /health knows no
 * store, and the gateway, which has none, loads none.
 */
@Injectable()
export class EventStoreReadiness implements ReadinessCheck {
  readonly name = 'event store';

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  /** A store that does not answer rejects: /health/ready reports the check with the store's error. */
  async problem(): Promise<string | null> {
    await this.store.ping();
    return null;
  }
}

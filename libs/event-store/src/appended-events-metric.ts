import { eventsAppended } from '@app/observability';
import type { NewEvent } from './event-store.port';

/**
 * events_appended_total, counted by each adapter where it writes the events: one append, every
 * stream a multi-stream append wrote (group commit), but not a retry that finds its events stored
 * already where the store tells it apart (PostgreSQL: it writes nothing).
 */
export function countAppended(events: readonly NewEvent[]): void {
  for (const event of events) eventsAppended.inc({ type: event.type });
}

import { EventEnvelope, formatPosition } from '@app/contracts';
import { RecordedEvent } from './event-store.port';

/** A stored event as the other services and webhook receivers see it (JetStream messages, webhook deliveries). */
export function toEnvelope(event: RecordedEvent): EventEnvelope {
  return {
    eventId: event.eventId,
    type: event.type,
    version: event.metadata.version,
    streamId: event.streamId,
    revision: event.revision.toString(),
    position: formatPosition(event.position),
    occurredAt: event.createdAt.toISOString(),
    workspaceId: event.metadata.workspaceId,
    data: event.data,
  };
}

import { EventEnvelope, formatPosition, Subjects } from '@app/contracts';
import { headers as natsHeaders, JetStreamClient, JSONCodec } from 'nats';
import { REQUEST_ID_HEADER } from '@app/messaging';
import { eventsRelayed, injectTraceContext, traceContextOf } from '@app/observability';
import { CheckpointStore } from './checkpoint-store';
import { RecordedEvent } from './event-store.port';

const codec = JSONCodec<EventEnvelope>();

export const RELAY_CHECKPOINT = 'relay:jetstream';

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

/**
 * The relay's batch handler: publishes each stored event to JetStream in store
 * order, one acknowledged publish at a time (so a failure can never let a later
 * event overtake an earlier one), with Nats-Msg-Id = event id, then moves the
 * checkpoint. After a crash the batch is sent again; JetStream drops the
 * repeats inside its duplicate window, and consumers are idempotent beyond it.
 * Headers: x-request-id from the event's metadata, and the W3C trace context
 * when the metadata holds one (traceparent/tracestate written at append).
 */
export function relayToJetStream(js: JetStreamClient, subjects: Subjects, checkpoints: CheckpointStore) {
  return async (events: RecordedEvent[]): Promise<void> => {
    for (const event of events) {
      const headers = natsHeaders();
      if (event.metadata.requestId) headers.set(REQUEST_ID_HEADER, event.metadata.requestId);
      injectTraceContext(headers, traceContextOf(event.metadata));
      await js.publish(subjects.event(event.streamId, event.type), codec.encode(toEnvelope(event)), { msgID: event.eventId, headers });
      eventsRelayed.inc({ type: event.type });
    }
    await checkpoints.save(RELAY_CHECKPOINT, events[events.length - 1].position);
  };
}

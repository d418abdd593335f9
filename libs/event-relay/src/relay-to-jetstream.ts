import { headers as natsHeaders, JSONCodec, NatsConnection, PubAck } from 'nats';
import { EventEnvelope, Subjects } from '@app/contracts';
import { RecordedEvent, ThrottledCheckpoint, toEnvelope } from '@app/event-store';
import { JetStreamPublisher, REQUEST_ID_HEADER } from '@app/messaging';
import { eventsRelayed, injectTraceContext, traceContextOf } from '@app/observability';

const codec = JSONCodec<EventEnvelope>();

/** The relay's checkpoint and leadership name (FeedProcessor). */
export const RELAY_CHECKPOINT = 'relay:jetstream';

/**
 * The relay saves its checkpoint at most this often while events keep coming (ThrottledCheckpoint):
 * a crash sends again at most this much of the feed, which the stream's duplicate window (minutes,
 * NATS_DUPLICATE_WINDOW_MS) drops. Saved after every batch, the checkpoint cost a statement and a
 * commit of its own per batch: about 0.1 statements and 0.2 transactions per draft (README, Benchmarks).
 */
export const RELAY_CHECKPOINT_EVERY_MS = 1_000;

/** How long a publish waits for the stream's acknowledgement: nats.js's JetStream default. */
const ACK_TIMEOUT_MS = 5_000;

/**
 * The relay's batch handler: publishes each stored event to JetStream in store
 * order, with Nats-Msg-Id = event id, then moves the checkpoint.
 *
 * The batch is pipelined: every publish is sent at once and the acknowledgements
 * are awaited together (one round trip per batch instead of one per event). Order
 * is kept by the stream itself: each publish after the first carries
 * Nats-Expected-Last-Msg-Id = its predecessor's event id
 * (https://docs.nats.io/nats-concepts/jetstream/headers), so the stream refuses it unless the predecessor is its last message. A publish
 * that fails therefore makes every later one of the batch fail too, instead of
 * landing out of order or leaving a gap. The relay then saves the checkpoint at
 * the last event of the acknowledged prefix at once and fails, and the feed
 * processor restarts from the first unacknowledged event. The first publish of a
 * batch asserts nothing: the previous batch was wholly acknowledged before this
 * one started.
 *
 * Otherwise the checkpoint moves lazily (`checkpoint`, at most once per
 * RELAY_CHECKPOINT_EVERY_MS): after a crash what followed the saved position is
 * sent again; JetStream drops the repeats inside its duplicate window (the
 * duplicate check comes before the expectation, so a repeat is acknowledged as a
 * duplicate), and consumers are idempotent beyond it.
 * Headers: x-request-id from the event's metadata, and the W3C trace context
 * when the metadata holds one (traceparent/tracestate written at append).
 */
export function relayToJetStream(nc: NatsConnection, subjects: Subjects, checkpoint: ThrottledCheckpoint) {
  const js = new JetStreamPublisher(nc, ACK_TIMEOUT_MS);
  return async (events: RecordedEvent[]): Promise<void> => {
    const acks = await Promise.allSettled(events.map((event, i) => publish(js, subjects, event, i > 0 ? events[i - 1].eventId : undefined)));
    const failed = acks.findIndex((ack) => ack.status === 'rejected');
    const acknowledged = failed === -1 ? events : events.slice(0, failed);
    for (const event of acknowledged) eventsRelayed.inc({ type: event.type });
    if (acknowledged.length > 0) await checkpoint.advance(acknowledged[acknowledged.length - 1].position);
    if (failed === -1) return;
    await checkpoint.flush();
    throw (acks[failed] as PromiseRejectedResult).reason;
  };
}

function publish(js: JetStreamPublisher, subjects: Subjects, event: RecordedEvent, predecessorId: string | undefined): Promise<PubAck> {
  const headers = natsHeaders();
  if (event.metadata.requestId) headers.set(REQUEST_ID_HEADER, event.metadata.requestId);
  injectTraceContext(headers, traceContextOf(event.metadata));
  return js.publish(subjects.event(event.streamId, event.type), codec.encode(toEnvelope(event)), { msgID: event.eventId, expectLastMsgID: predecessorId, headers });
}

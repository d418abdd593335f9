import type { EventEnvelope } from '@app/contracts';

/*
 * The roots the AsyncAPI payload schemas are generated from (ts-json-schema-generator
 * reads this file's types, never runs it). Each event union of the contract is
 * listed in EVENT_FAMILIES; the envelope needs a non-generic name to be a root.
 */
export type { AccountEvent, AccountMetricsEvent, CommentEvent, PostEvent, PostMetricsEvent, QueueEvent } from '@app/contracts';

/** The JSON payload of every event on NATS; `data` is the event type's own schema. */
export type AnyEventEnvelope = EventEnvelope<unknown>;

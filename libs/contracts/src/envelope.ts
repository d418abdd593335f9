/**
 * The JSON payload of every event published on NATS (subjects social.v1.<category>.<EventType>).
 * Public to internal services: documented and versioned.
 */
export interface EventEnvelope<T = unknown> {
  eventId: string;
  type: string;
  /** Schema version of data for this type. */
  version: number;
  streamId: string;
  /** 0-based position of the event within its stream, as a decimal string. */
  revision: string;
  /** Global position in the event store, "commit:prepare", as decimal strings. */
  position: string;
  occurredAt: string;
  workspaceId: string;
  data: T;
}

import { randomUUID } from 'node:crypto';
import { currentTraceFields } from '@app/observability';
import { EventStore, ExpectedRevision, NewEvent, RecordedEvent } from './event-store.port';

/** A domain event as deciders see it. */
export interface DomainEvent {
  type: string;
  data: unknown;
}

/** An aggregate rebuilt from its stream, with the revision to append after. */
export interface LoadedAggregate<S> {
  state: S;
  expected: ExpectedRevision;
  last: RecordedEvent | null;
}

/** Folds a stream with the aggregate's evolve (the decider pattern's load). */
export async function loadAggregate<S, E extends DomainEvent>(
  store: EventStore,
  streamId: string,
  evolve: (state: S, event: E) => S,
  initialState: () => S,
): Promise<LoadedAggregate<S>> {
  return foldAggregate(await store.readStream(streamId), evolve, initialState);
}

/** An aggregate's stream, as read, folded with its evolve. */
export function foldAggregate<S, E extends DomainEvent>(history: RecordedEvent[], evolve: (state: S, event: E) => S, initialState: () => S): LoadedAggregate<S> {
  const state = history.map((e) => ({ type: e.type, data: e.data }) as E).reduce(evolve, initialState());
  const last = history.at(-1) ?? null;
  return { state, expected: last ? last.revision : 'no_stream', last };
}

/**
 * Decided events as stored events: a fresh id each, the workspace, the schema
 * version, the request that caused them and its trace context (the relay puts
 * both in the JetStream headers, so consumers continue the trace).
 */
export function toNewEvents(events: DomainEvent[], meta: { workspaceId: string; version: number; requestId: string | undefined }): NewEvent[] {
  const trace = currentTraceFields();
  return events.map((event) => ({
    eventId: randomUUID(),
    type: event.type,
    data: event.data,
    metadata: { workspaceId: meta.workspaceId, version: meta.version, ...(meta.requestId ? { requestId: meta.requestId } : {}), ...trace },
  }));
}

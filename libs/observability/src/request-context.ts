import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { Context } from '@opentelemetry/api';

/** The request-id header carried from the gateway into every service a request touches (HTTP, NATS commands, JetStream events). */
export const REQUEST_ID_HEADER = 'x-request-id';

/** What every log line and outgoing message written while handling one request, command or event carries. */
export interface RequestContext {
  requestId?: string;
  /** The OpenTelemetry context extracted from the incoming traceparent (used when no SDK keeps its own). */
  trace?: Context;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs fn (and everything it starts) inside the given context. */
export function runInRequestContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/** Ids a client may choose: short and plain, so a header cannot forge log fields or flood them. */
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The client's x-request-id when it is a plain short token, otherwise a fresh one. */
export function acceptRequestId(incoming: string | string[] | undefined): string {
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  return value && ACCEPTABLE_REQUEST_ID.test(value) ? value : randomUUID();
}

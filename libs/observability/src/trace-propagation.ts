import { Context, context, propagation, ROOT_CONTEXT, TextMapGetter, TextMapPropagator, TextMapSetter, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { currentRequestContext } from './request-context';

/** The part of NATS's MsgHdrs (and of any header map) propagation needs. */
export interface HeaderCarrier {
  get(key: string): string;
  set(key: string, value: string): void;
  keys(): string[];
}

const natsSetter: TextMapSetter<HeaderCarrier> = { set: (carrier, key, value) => carrier.set(key, value) };
const natsGetter: TextMapGetter<HeaderCarrier> = {
  get: (carrier, key) => carrier.get(key) || undefined,
  keys: (carrier) => carrier.keys(),
};

/**
 * W3C traceparent/tracestate. An OpenTelemetry SDK, when one is registered
 * (see README, Observability), brings its own global propagator and that one is
 * used instead; without one the API's propagator is a no-op, so this keeps the
 * trace context flowing between the services anyway.
 */
const w3c = new W3CTraceContextPropagator();

function activePropagator(): TextMapPropagator {
  return propagation.fields().length > 0 ? propagation : w3c;
}

/**
 * The trace context of the work in hand: an SDK's active span when there is
 * one, otherwise the context extracted from the incoming request, command or event.
 */
export function currentTraceContext(): Context {
  const active = context.active();
  if (trace.getSpanContext(active)) return active;
  return currentRequestContext()?.trace ?? active;
}

/** Writes the current trace context (traceparent) into outgoing NATS headers. */
export function injectTraceContext(headers: HeaderCarrier, from: Context = currentTraceContext()): void {
  activePropagator().inject(from, headers, natsSetter);
}

/** The trace context an incoming NATS message carries (ROOT when it carries none). */
export function extractTraceContext(headers: HeaderCarrier | undefined): Context {
  return headers ? activePropagator().extract(ROOT_CONTEXT, headers, natsGetter) : ROOT_CONTEXT;
}

/** The trace context held in a plain record: an HTTP request's headers, an event's metadata. */
export function traceContextOf(record: Record<string, unknown>): Context {
  return activePropagator().extract(ROOT_CONTEXT, record, {
    get: (carrier, key) => {
      const value = carrier[key];
      return typeof value === 'string' || Array.isArray(value) ? (value as string | string[]) : undefined;
    },
    keys: (carrier) => Object.keys(carrier),
  });
}

/** The current trace context as plain fields (traceparent, tracestate) to store with an event. */
export function currentTraceFields(): Record<string, string> {
  const fields: Record<string, string> = {};
  activePropagator().inject(currentTraceContext(), fields, { set: (carrier, key, value) => (carrier[key] = value) });
  return fields;
}

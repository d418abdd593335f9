import { Logger } from '@nestjs/common';
import { EventEnvelope } from '@app/contracts';
import { eventRedeliveries, eventsHandled, extractTraceContext, REQUEST_ID_HEADER, runInRequestContext } from '@app/observability';
import {
  AckPolicy,
  ConsumerConfig,
  ConsumerDebugEvents,
  ConsumerEvents,
  ConsumerMessages,
  DeliverPolicy,
  JsMsg,
  JSONCodec,
  NatsConnection,
  nanos,
} from 'nats';

const codec = JSONCodec<EventEnvelope>();

/** What a handler gets for one delivery of one event. */
export interface EventDelivery<T = unknown> {
  envelope: EventEnvelope<T>;
  /** The request that caused the event (its x-request-id header); the handler also runs in its context. */
  requestId: string | undefined;
  /** 1 on the first delivery. */
  deliveryCount: number;
  /** True when JetStream will not deliver this event again (max_deliver reached): a failure now is final. */
  isLastDelivery: boolean;
  /** Tells JetStream the handler is alive, restarting the ack wait. Call it more often than the ack wait. */
  working: () => void;
  /** Aborted when the consumer stopped and gave up waiting for this handler: stop at the next step, ack nothing. */
  signal: AbortSignal;
}

/**
 * Handles one event. Handlers MUST be idempotent: JetStream delivers at least
 * once (a crash before the ack, an ack lost on the wire, an ack wait passed), so
 * the same event may arrive again, even while an earlier delivery still runs on
 * another replica. Resolving acks the event; throwing naks it for a later delivery.
 */
export type EventHandler = (delivery: EventDelivery) => Promise<void>;

export interface EventConsumerOptions {
  /** The stream (created by ensureEventStream) and the durable consumer's name, shared by every replica. */
  stream: string;
  durableName: string;
  filterSubjects: string[];
  /** How long a delivery may go without an ack or a working() before JetStream redelivers it. */
  ackWaitMs: number;
  /** Deliveries of one event before JetStream gives up on it (the last one is flagged to the handler). */
  maxDeliver: number;
  /** Unacknowledged events this consumer holds at once, across replicas (max_ack_pending). */
  maxInFlight: number;
  handler: EventHandler;
  /** A handler failure or an undecodable message (logged by the caller; the event is nak'ed or terminated). */
  onError: (error: unknown, subject: string) => void;
}

/**
 * Delays between deliveries after an ack wait passed: the first is the ack wait
 * itself (JetStream uses backoff[0] as the ack wait), then doubling, at most 8×.
 * Length max_deliver - 1, as the server requires fewer backoff steps than deliveries.
 */
export function redeliveryBackoffMs(ackWaitMs: number, maxDeliver: number): number[] {
  return Array.from({ length: Math.max(0, maxDeliver - 1) }, (_, i) => ackWaitMs * Math.min(2 ** i, 8));
}

/** The delay before a failed delivery comes back: a tenth of the ack wait, doubling, at most the ack wait. */
export function retryDelayMs(ackWaitMs: number, deliveryCount: number): number {
  return Math.min(ackWaitMs, Math.max(100, Math.floor(ackWaitMs / 10)) * 2 ** Math.max(0, deliveryCount - 1));
}

export function consumerConfig(options: EventConsumerOptions): Partial<ConsumerConfig> {
  const backoff = redeliveryBackoffMs(options.ackWaitMs, options.maxDeliver);
  return {
    durable_name: options.durableName,
    ack_policy: AckPolicy.Explicit,
    // A new durable starts at the beginning: events relayed before it existed are handled too (handlers are idempotent).
    deliver_policy: DeliverPolicy.All,
    ack_wait: nanos(options.ackWaitMs),
    // Never the unlimited default: a poison event must not loop for ever.
    max_deliver: options.maxDeliver,
    ...(backoff.length ? { backoff: backoff.map(nanos) } : {}),
    max_ack_pending: options.maxInFlight,
    ...(options.filterSubjects.length === 1 ? { filter_subject: options.filterSubjects[0] } : { filter_subjects: options.filterSubjects }),
  };
}

/** Creates the durable consumer, or brings an existing one to the configured limits. */
export async function ensureConsumer(nc: NatsConnection, options: EventConsumerOptions): Promise<void> {
  const jsm = await nc.jetstreamManager();
  const config = consumerConfig(options);
  try {
    await jsm.consumers.info(options.stream, options.durableName);
  } catch (error) {
    if ((error as { code?: string }).code !== '404') throw error;
    await jsm.consumers.add(options.stream, config);
    return;
  }
  const { durable_name: _name, ack_policy: _ack, deliver_policy: _deliver, ...updatable } = config;
  await jsm.consumers.update(options.stream, options.durableName, updatable);
}

/** Consumer problems the client reports while it keeps trying; any of them means events are not flowing. */
const STALLED_BY: string[] = [
  ConsumerEvents.ConsumerDeleted,
  ConsumerEvents.ConsumerNotFound,
  ConsumerEvents.StreamNotFound,
  ConsumerEvents.NoResponders,
  ConsumerEvents.HeartbeatsMissed,
];

/** How a finished handler settles its event; null when it was abandoned (nothing is sent). */
type Settle = ((msg: JsMsg) => void) | null;

interface InFlight {
  settled: Promise<Settle>;
  abort: AbortController;
}

/**
 * A durable JetStream pull consumer of events: explicit acks, bounded
 * redelivery with backoff, every delivered event handled at once (the server's
 * max_ack_pending bounds how many), and a stop that waits for the running
 * handlers and never acks unfinished work.
 */
export class EventConsumer {
  private messages: ConsumerMessages | null = null;
  private loop: Promise<void> = Promise.resolve();
  /** Running handlers by stream sequence: a redelivery of a running event joins it instead of running twice here. */
  private readonly inFlight = new Map<number, InFlight>();
  private stalled: string | null = null;
  private stopped = false;
  private readonly logger: Logger;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly options: EventConsumerOptions,
  ) {
    this.logger = new Logger(`Events:${options.durableName}`);
  }

  static async start(nc: NatsConnection, options: EventConsumerOptions): Promise<EventConsumer> {
    await ensureConsumer(nc, options);
    const consumer = new EventConsumer(nc, options);
    await consumer.begin();
    return consumer;
  }

  private async begin(): Promise<void> {
    const consumer = await this.nc.jetstream().consumers.get(this.options.stream, this.options.durableName);
    const messages = await consumer.consume({ max_messages: this.options.maxInFlight });
    this.messages = messages;
    void this.watchStatus(messages);
    this.loop = (async () => {
      for await (const msg of messages) this.dispatch(msg);
    })();
  }

  private async watchStatus(messages: ConsumerMessages): Promise<void> {
    for await (const status of await messages.status()) {
      if (STALLED_BY.includes(status.type)) this.stalled = `${status.type}`;
      // A new pull or a message means the consumer is reachable again.
      else if (status.type === ConsumerDebugEvents.Next) this.stalled = null;
    }
  }

  private dispatch(msg: JsMsg): void {
    this.stalled = null;
    const running = this.inFlight.get(msg.seq);
    if (running) {
      // JetStream redelivered an event still being handled here: keep the copy alive, settle it like the first.
      msg.working();
      void running.settled.then((settle) => settle?.(msg));
      return;
    }
    const abort = new AbortController();
    const settled = this.handle(msg, abort.signal).then((settle) => {
      this.inFlight.delete(msg.seq);
      settle?.(msg);
      return settle;
    });
    this.inFlight.set(msg.seq, { settled, abort });
  }

  /**
   * Runs the handler in the request context the message carries (request id,
   * trace context), counts and logs the delivery; never rejects.
   */
  private handle(msg: JsMsg, signal: AbortSignal): Promise<Settle> {
    const requestId = msg.headers?.get(REQUEST_ID_HEADER) || undefined;
    return runInRequestContext({ requestId, trace: extractTraceContext(msg.headers) }, () => this.handleInContext(msg, requestId, signal));
  }

  private async handleInContext(msg: JsMsg, requestId: string | undefined, signal: AbortSignal): Promise<Settle> {
    let envelope: EventEnvelope;
    try {
      envelope = codec.decode(msg.data);
    } catch (error) {
      this.options.onError(error, msg.subject);
      return (m) => m.term();
    }
    const deliveryCount = msg.info.redeliveryCount;
    const isLastDelivery = deliveryCount >= this.options.maxDeliver;
    const working = () => (signal.aborted ? undefined : msg.working());
    const consumer = this.options.durableName;
    if (deliveryCount > 1) eventRedeliveries.inc({ consumer });
    const started = performance.now();
    const done = (outcome: 'ok' | 'failed') => {
      eventsHandled.inc({ consumer, type: envelope.type, outcome });
      const durationMs = Math.round((performance.now() - started) * 10) / 10;
      this.logger.log({ msg: `${envelope.type} ${outcome} ${durationMs}ms`, eventId: envelope.eventId, type: envelope.type, deliveryCount, outcome, durationMs });
    };
    try {
      await this.options.handler({ envelope, requestId, deliveryCount, isLastDelivery, working, signal });
      if (signal.aborted) return null;
      done('ok');
      return (m) => m.ack();
    } catch (error) {
      if (signal.aborted) return null;
      done('failed');
      this.options.onError(error, msg.subject);
      // No reason text: servers before 2.10.4 ignore a +TERM that carries one.
      if (isLastDelivery) return (m) => m.term();
      const delay = retryDelayMs(this.options.ackWaitMs, deliveryCount);
      return (m) => m.nak(delay);
    }
  }

  /** Why events are not flowing, or null when they are; also asks the server whether the durable consumer still exists. */
  async problem(): Promise<string | null> {
    if (this.stopped) return 'stopped';
    if (this.nc.isClosed()) return 'nats connection closed';
    if (this.stalled) return this.stalled;
    try {
      const jsm = await this.nc.jetstreamManager();
      await jsm.consumers.info(this.options.stream, this.options.durableName);
      return null;
    } catch (error) {
      return `consumer ${this.options.durableName}: ${(error as Error).message}`;
    }
  }

  /**
   * Stops taking events and waits up to graceMs for the running handlers. A
   * handler still running then is abandoned: its signal aborts and its event is
   * neither acked nor nak'ed, so JetStream redelivers it after the ack wait.
   */
  async stop(graceMs: number): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.messages?.close();
    await this.loop;
    const running = [...this.inFlight.values()];
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([Promise.all(running.map((r) => r.settled)), grace]);
    clearTimeout(timer);
    for (const r of this.inFlight.values()) r.abort.abort();
  }
}

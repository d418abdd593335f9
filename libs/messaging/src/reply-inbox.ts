import { createInbox, Msg, NatsConnection, Subscription } from 'nats';

/** Whoever waits for the answers sent to one reply subject. */
export interface ReplyWaiter {
  /** An answer arrived; true when it was the last one this waiter expects. */
  answer(msg: Msg): boolean;
  /** No (further) answer will come: nobody listens on the subject it asked (no responders), or its time ran out. */
  lost(): void;
}

interface Waiting {
  waiter: ReplyWaiter;
  deadline: number;
}

/** The status NATS answers a request with when no subscriber listens on its subject (headers only, no data). */
const NO_RESPONDERS = 503;

/** Timeouts are honoured to within this share of their length (the sweep's period). */
const SWEEP_FRACTION = 8;

/**
 * Request/reply without nats.js's per-request machinery: one subscription on
 * `<inbox>.*` for every answer a client awaits, a reply subject per request
 * under it, and one coarse sweep that gives up on the overdue. nats.js's own
 * request arms a timer and, once answered, builds an Error (a captured stack)
 * to cancel it — for every request, about 2% of the gateway's CPU (issue 22).
 * A request's time runs out between `timeoutMs` and an eighth more than that.
 */
export class ReplyInbox {
  private readonly prefix = createInbox();
  private subscription: Subscription | undefined;
  private nextToken = 0;
  /** In the order they were opened, which is the order of their deadlines (one timeout for all). */
  private readonly waiting = new Map<string, Waiting>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly nc: NatsConnection,
    private readonly timeoutMs: number,
  ) {}

  /** A fresh reply subject whose answers go to `waiter` until it has them all, or until it is lost. */
  open(waiter: ReplyWaiter): string {
    this.subscription ??= this.nc.subscribe(`${this.prefix}.*`, { callback: (_error, msg) => this.receive(msg) });
    const token = (this.nextToken++).toString(36);
    this.waiting.set(token, { waiter, deadline: performance.now() + this.timeoutMs });
    this.sweeper ??= setInterval(() => this.sweep(), Math.max(1, Math.ceil(this.timeoutMs / SWEEP_FRACTION)));
    return `${this.prefix}.${token}`;
  }

  private receive(msg: Msg | undefined): void {
    // A subscription error comes without a message; whoever waits on it is swept when overdue.
    if (!msg) return;
    const token = msg.subject.slice(this.prefix.length + 1);
    const waiting = this.waiting.get(token);
    // An answer after its request was given up on has nobody left to hear it.
    if (!waiting) return;
    if (msg.data.length === 0 && msg.headers?.code === NO_RESPONDERS) {
      this.close(token);
      waiting.waiter.lost();
    } else if (waiting.waiter.answer(msg)) {
      this.close(token);
    }
  }

  private sweep(): void {
    const now = performance.now();
    for (const [token, waiting] of this.waiting) {
      if (waiting.deadline > now) break;
      this.close(token);
      waiting.waiter.lost();
    }
  }

  /** The sweep runs only while someone waits: an idle client arms no timer. */
  private close(token: string): void {
    this.waiting.delete(token);
    if (this.waiting.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }
}

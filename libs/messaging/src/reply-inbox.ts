import { createInbox, Msg, NatsConnection, Subscription } from 'nats';

/** Whoever waits for the answers sent to one reply subject. */
export interface ReplyWaiter {
  /** An answer arrived; true when it was the last one this waiter expects. */
  answer(msg: Msg): boolean;
  /** No (further) answer will come: nobody listens on the subject it asked (`no_responders`: nobody got it), or its time ran out. */
  lost(why: 'no_responders' | 'timeout'): void;
}

interface Waiting {
  waiter: ReplyWaiter;
  deadline: number;
}

/** The status NATS answers a request with when no subscriber listens on its subject (headers only, no data). */
const NO_RESPONDERS = 503;

/**
 * Request/reply without nats.js's per-request machinery: one subscription on
 * `<inbox>.*` for every answer a client awaits, a reply subject per request
 * under it, and one timer, set for the oldest deadline, that gives up on the
 * overdue. nats.js's own request arms a timer and, once answered, builds an
 * Error (a captured stack) to cancel it — for every request, about 2% of the
 * gateway's CPU (issue 22). Under steady traffic the one timer fires about
 * once per timeout; a request's time still runs out at its own deadline (the
 * gateway promises an answer within the command timeout).
 */
export class ReplyInbox {
  private readonly prefix = createInbox();
  private subscription: Subscription | undefined;
  private nextToken = 0;
  /** In the order they were opened, which is the order of their deadlines (one timeout for all). */
  private readonly waiting = new Map<string, Waiting>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly nc: NatsConnection,
    private readonly timeoutMs: number,
  ) {}

  /** A fresh reply subject whose answers go to `waiter` until it has them all, or until it is lost. */
  open(waiter: ReplyWaiter): string {
    this.subscription ??= this.nc.subscribe(`${this.prefix}.*`, { callback: (_error, msg) => this.receive(msg) });
    const token = (this.nextToken++).toString(36);
    this.waiting.set(token, { waiter, deadline: performance.now() + this.timeoutMs });
    if (!this.timer) this.armForOldest();
    return `${this.prefix}.${token}`;
  }

  private receive(msg: Msg | undefined): void {
    // A subscription error comes without a message; whoever waits on it is given up at its deadline.
    if (!msg) return;
    const token = msg.subject.slice(this.prefix.length + 1);
    const waiting = this.waiting.get(token);
    // An answer after its request was given up on has nobody left to hear it.
    if (!waiting) return;
    if (msg.data.length === 0 && msg.headers?.code === NO_RESPONDERS) {
      this.close(token);
      waiting.waiter.lost('no_responders');
    } else if (waiting.waiter.answer(msg)) {
      this.close(token);
    }
  }

  /** The timer is set for the oldest deadline still waited for; the answered are gone from the map by then. */
  private armForOldest(): void {
    const oldest = this.waiting.values().next().value;
    if (!oldest) return;
    this.timer = setTimeout(() => this.expireOverdue(), Math.max(0, oldest.deadline - performance.now()));
  }

  private expireOverdue(): void {
    this.timer = undefined;
    const now = performance.now();
    for (const [token, waiting] of this.waiting) {
      if (waiting.deadline > now) break;
      this.close(token);
      waiting.waiter.lost('timeout');
    }
    if (!this.timer) this.armForOldest();
  }

  /** Nobody waiting, no timer: an idle client keeps nothing armed. */
  private close(token: string): void {
    this.waiting.delete(token);
    if (this.waiting.size === 0 && this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }
}

import { collectDefaultMetrics, Counter, Gauge, Histogram, register } from 'prom-client';

/**
 * The process's one registry (prom-client's global one, so any library's
 * metrics land beside ours), with Node's default metrics. Several apps in one
 * process (npm start, the tests) share it: each metric is defined once, here.
 */
export const metricsRegistry = register;
collectDefaultMetrics({ register: metricsRegistry });

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP requests by route pattern, method and status code',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

export const commandsHandled = new Counter({
  name: 'commands_handled_total',
  help: 'NATS commands answered, by command and outcome (ok, refused: a domain refusal, error: an unexpected failure)',
  labelNames: ['command', 'outcome'] as const,
});

export const eventsAppended = new Counter({
  name: 'events_appended_total',
  help: 'Events appended to the event store by this process, by event type',
  labelNames: ['type'] as const,
});

export const eventsRelayed = new Counter({
  name: 'events_relayed_total',
  help: 'Stored events published to JetStream by the relay, by event type (every appended event passes the relay once; a resend after a crash counts again)',
  labelNames: ['type'] as const,
});

export const eventsHandled = new Counter({
  name: 'events_handled_total',
  help: 'JetStream event deliveries handled, by consumer, event type and outcome (ok, failed)',
  labelNames: ['consumer', 'type', 'outcome'] as const,
});

export const eventRedeliveries = new Counter({
  name: 'event_redeliveries_total',
  help: 'JetStream deliveries of an event that had been delivered before (delivery count > 1), by consumer',
  labelNames: ['consumer'] as const,
});

export const publishOutcomes = new Counter({
  name: 'publish_outcomes_total',
  help: 'Per-account publish outcomes recorded by the publisher (AccountPublished / AccountPublishFailed), by platform, outcome and error code',
  labelNames: ['platform', 'outcome', 'code'] as const,
});

export const metricsCollections = new Counter({
  name: 'analytics_collections_total',
  help: "Platform calls of the analytics collector, by platform, kind (item, followers) and outcome (collected, refused, rate_limited, failed, unavailable)",
  labelNames: ['platform', 'kind', 'outcome'] as const,
});

/** A feed follower's distance from the head of the event feed; null when this process is not its leader. */
export type FeedLagProbe = () => Promise<{ events: number; seconds: number } | null>;

const feedLagProbes = new Map<string, FeedLagProbe>();

/**
 * Lag is measured when scraped (one bounded read of the feed per follower),
 * not on every batch: an idle follower that is caught up reports 0, and one
 * that is stuck keeps growing even though it handles nothing.
 */
function collectFeedLag(): Promise<Map<string, { events: number; seconds: number }>> {
  // Both lag gauges collect in the same scrape: one read of the feed serves them both.
  if (!lastCollect || Date.now() - lastCollect.at > 1000) lastCollect = { at: Date.now(), lags: readFeedLag() };
  return lastCollect.lags;
}

let lastCollect: { at: number; lags: Promise<Map<string, { events: number; seconds: number }>> } | null = null;

async function readFeedLag(): Promise<Map<string, { events: number; seconds: number }>> {
  const lags = new Map<string, { events: number; seconds: number }>();
  await Promise.all(
    [...feedLagProbes].map(async ([name, probe]) => {
      const lag = await probe().catch(() => null);
      if (lag) lags.set(name, lag);
    }),
  );
  return lags;
}

export const feedLagEvents = new Gauge({
  name: 'feed_lag_events',
  help: 'Events stored but not yet handled by a feed follower (relay, projection), counted up to FEED_LAG_COUNT_LIMIT; reported by the leader only',
  labelNames: ['processor'] as const,
  async collect() {
    this.reset();
    for (const [name, lag] of await collectFeedLag()) this.set({ processor: name }, lag.events);
  },
});

export const feedLagSeconds = new Gauge({
  name: 'feed_lag_seconds',
  help: 'Age of the oldest event a feed follower has not handled yet (0 when caught up); reported by the leader only',
  labelNames: ['processor'] as const,
  async collect() {
    this.reset();
    for (const [name, lag] of await collectFeedLag()) this.set({ processor: name }, lag.seconds);
  },
});

/** Events behind are counted up to this many: enough to see a backlog, bounded so a scrape stays cheap. */
export const FEED_LAG_COUNT_LIMIT = 1000;

/** Reports a feed follower's lag at every scrape until the returned function is called. */
export function trackFeedLag(name: string, probe: FeedLagProbe): () => void {
  feedLagProbes.set(name, probe);
  return () => {
    if (feedLagProbes.get(name) === probe) feedLagProbes.delete(name);
  };
}

/** Counts one recorded per-account publish outcome. */
export function countPublishOutcome(platform: string, outcome: { status: 'published' } | { status: 'failed'; error: { code: string } }): void {
  publishOutcomes.inc({ platform, outcome: outcome.status, code: outcome.status === 'failed' ? outcome.error.code : '' });
}

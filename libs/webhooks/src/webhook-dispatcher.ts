import { Logger } from '@nestjs/common';
import { WEBHOOK_PAYLOAD_VERSION, WebhookPayload } from '@app/contracts';
import { WebhookDelivery, WebhookDeliveryStore } from './delivery-store';
import { WebhookEndpoint, WebhookEndpointStore } from './endpoint-store';
import { DISABLE_FAILING_AFTER_MS, nextAttemptAt, RETRY_WINDOW_MS, throttledUntil } from './retry-schedule';
import { signWebhook } from './signing';
import { WebhookTarget } from './webhook-target';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export interface WebhookDispatcherOptions {
  /** The time every decision is taken at (due, retry, lease, five days failing); tests move it. */
  now: () => Date;
  /** How long one endpoint stays leased to this deliverer past each attempt's start; longer than an attempt's timeout. */
  leaseMs: number;
  /** Endpoints delivered to at once by this replica; each one has at most one attempt in flight. */
  maxEndpointsInFlight: number;
  random?: () => number;
}

/**
 * Sends the queued deliveries. Each pass leases the endpoints that have due
 * deliveries (one deliverer per endpoint across replicas) and drains each on its
 * own: an endpoint's deliveries go out one at a time, oldest first, while other
 * endpoints are served in parallel, so a slow endpoint only ever delays itself.
 * Nothing is held in memory: a crash leaves the lease to expire and the
 * delivery pending, sent again under the same webhook-id.
 */
export class WebhookDispatcher {
  private readonly draining = new Map<string, Promise<void>>();
  private passing: Promise<number> | null = null;
  private stopped = false;
  private readonly random: () => number;

  constructor(
    private readonly endpoints: WebhookEndpointStore,
    private readonly deliveries: WebhookDeliveryStore,
    private readonly target: WebhookTarget,
    private readonly options: WebhookDispatcherOptions,
    private readonly logger = new Logger(WebhookDispatcher.name),
  ) {
    this.random = options.random ?? Math.random;
  }

  /** Leases endpoints with due deliveries and starts draining them; returns how many it started. One pass at a time. */
  pass(): Promise<number> {
    this.passing ??= this.claim().finally(() => (this.passing = null));
    return this.passing;
  }

  private async claim(): Promise<number> {
    if (this.stopped) return 0;
    const now = this.options.now();
    const claimed = await this.endpoints.claimDue(now, this.leaseEnd(now), this.options.maxEndpointsInFlight - this.draining.size, [...this.draining.keys()]);
    for (const endpointId of claimed) {
      const drain = this.drain(endpointId)
        .catch((error: unknown) => {
          this.logger.warn(`endpoint ${endpointId}: ${messageOf(error)}`);
          return 'stopped' as const;
        })
        .then((end) => {
          this.draining.delete(endpointId);
          // Emptied: a delivery queued while this drain was ending found the endpoint busy, so look again now, not
          // at the next tick. Not after a failure: the endpoint's other deliveries wait for the next pass.
          if (end === 'emptied' && !this.stopped) this.pass().catch((error: unknown) => this.logger.warn(`dispatch pass failed: ${messageOf(error)}`));
        });
      this.draining.set(endpointId, drain);
    }
    return claimed.length;
  }

  /** Resolves when every drain started so far has finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.passing || this.draining.size) {
      await this.passing;
      await Promise.all([...this.draining.values()]);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.idle();
  }

  private leaseEnd(now: Date): Date {
    return new Date(now.getTime() + this.options.leaseMs);
  }

  /** Sends the endpoint's due deliveries in order until none is due (emptied), one fails, or the endpoint is disabled. */
  private async drain(endpointId: string): Promise<'emptied' | 'stopped'> {
    try {
      // The secrets are read once per drain (a drain is short; a rotation during it signs with both anyway).
      const secrets = await this.endpoints.signingSecrets(endpointId, this.options.now());
      while (!this.stopped) {
        const endpoint = await this.endpoints.byId(endpointId);
        if (!endpoint?.enabled) return 'stopped';
        const now = this.options.now();
        const delivery = await this.deliveries.nextDue(endpointId, now);
        if (!delivery) return 'emptied';
        await this.endpoints.extendLease(endpointId, this.leaseEnd(now));
        // A failure ends this drain: the endpoint's next due delivery waits for the next pass, not a string of timeouts now.
        if (!(await this.attempt(endpoint, secrets, delivery))) return 'stopped';
      }
      return 'stopped';
    } finally {
      await this.endpoints.releaseLease(endpointId);
    }
  }

  /** One attempt of one delivery, recorded; true when it was delivered. */
  private async attempt(endpoint: WebhookEndpoint, secrets: readonly string[], delivery: WebhookDelivery): Promise<boolean> {
    // The receiver compares webhook-timestamp with its own clock (replay protection): the real time of sending.
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'webhook-id': delivery.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(secrets, delivery.id, timestamp, delivery.payload),
    };
    const result = await this.target.send(endpoint.url, headers, delivery.payload);
    const at = this.options.now();
    if (result.responseStatus !== null && result.responseStatus >= 200 && result.responseStatus < 300) {
      await this.deliveries.recordDelivered(delivery.id, result.responseStatus, at);
      if (endpoint.failingSince) await this.endpoints.markSucceeded(endpoint.id);
      return true;
    }
    if (result.responseStatus === 410) {
      // 410 Gone: the receiver says the endpoint is no more (Standard Webhooks: disable it, retry nothing).
      await this.deliveries.recordFailed(delivery.id, result, at, null);
      await this.disable(endpoint, 'gone', at);
      return false;
    }
    // A 429 / 503 with Retry-After: this delivery, and every other of the endpoint, waits at least that long instead of the backoff.
    const throttled = throttledUntil(result, at);
    const next = throttled ? (throttled > delivery.giveUpAt ? null : throttled) : nextAttemptAt(delivery.attempts + 1, at, delivery.giveUpAt, this.random());
    await this.deliveries.recordFailed(delivery.id, result, at, next);
    if (throttled) await this.endpoints.throttle(endpoint.id, throttled);
    const failingSince = await this.endpoints.markFailing(endpoint.id, at);
    if (at.getTime() - failingSince.getTime() >= DISABLE_FAILING_AFTER_MS) await this.disable(endpoint, 'failing', at);
    return false;
  }

  /** Disables the endpoint and tells the workspace's other enabled endpoints (webhook.disabled). */
  private async disable(endpoint: WebhookEndpoint, reason: 'gone' | 'failing', at: Date): Promise<void> {
    await this.endpoints.disable(endpoint.id, reason, at);
    this.logger.warn(`endpoint ${endpoint.id} disabled (${reason})`);
    const eventId = `webhook.disabled:${endpoint.id}:${at.getTime()}`;
    const payload: WebhookPayload = {
      type: 'webhook.disabled',
      timestamp: at.toISOString(),
      version: WEBHOOK_PAYLOAD_VERSION,
      eventId,
      position: null,
      workspaceId: endpoint.workspaceId,
      data: { endpointId: endpoint.id, url: endpoint.url, reason, disabledAt: at.toISOString() },
    };
    const others = (await this.endpoints.list(endpoint.workspaceId)).filter((other) => other.enabled && other.id !== endpoint.id);
    for (const other of others) {
      await this.deliveries.queue(
        { endpointId: other.id, eventId, eventType: 'webhook.disabled', position: null, payload: JSON.stringify(payload) },
        at,
        new Date(at.getTime() + RETRY_WINDOW_MS),
      );
    }
  }
}

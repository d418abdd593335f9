import { EventEnvelope, ReplayWebhookReply } from '@app/contracts';
import { comparePositions, EventStore, formatPosition, GlobalPosition, toEnvelope } from '@app/event-store';
import { QueueOutcome, WebhookDeliveryStore } from './delivery-store';
import { WebhookEndpoint, WebhookEndpointStore } from './endpoint-store';
import { RETRY_WINDOW_MS } from './retry-schedule';
import { needsStreamHistory, payloadOf, WebhookEvent, webhookEventOf } from './webhook-events';
import { ASK_EVERY_TIME, EndpointPresence, SKIPPED_MEMORY_MAX, SKIPPED_MEMORY_MS } from './workspaces-with-endpoints';

const REPLAY_BATCH = 500;

/**
 * Turns stored events into queued deliveries: live (the batches the webhooks
 * service follows on the event store's feed: webhookFeedHandler) and replayed
 * (every stored event after a position or since a time, read from the event
 * store itself). Both queue the same payload under the same webhook-id, so a
 * replay never duplicates what was delivered and fills in what was not.
 *
 * An event of a workspace that has no endpoint (`presence`, in memory) is
 * skipped without a query, and remembered for SKIPPED_MEMORY_MS: if the
 * workspace turns out to have gained one meanwhile (takeSkipped), it is taken
 * again, in the order of the live events (one at a time with them).
 */
export class WebhookFanout {
  /** The live events skipped lately, oldest first. */
  private skipped: Array<{ event: EventEnvelope; at: number }> = [];
  /** Live takes and re-takes, one at a time: an endpoint's deliveries are queued in store order. */
  private serial: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly endpoints: WebhookEndpointStore,
    private readonly deliveries: WebhookDeliveryStore,
    private readonly events: EventStore,
    private readonly now: () => Date,
    private readonly presence: EndpointPresence = ASK_EVERY_TIME,
  ) {}

  /** Queues each event, in order, for every subscribed endpoint of its workspace; returns how many deliveries were queued. */
  take(events: readonly EventEnvelope[]): Promise<number> {
    return this.inTurn(() => this.takeEach(events));
  }

  /** Takes again the events of `workspaceId` skipped lately (it has an endpoint now); returns how many deliveries were queued. */
  takeSkipped(workspaceId: string): Promise<number> {
    return this.inTurn(async () => {
      const mine = this.skipped.filter((s) => s.event.workspaceId === workspaceId);
      if (mine.length === 0) return 0;
      this.skipped = this.skipped.filter((s) => s.event.workspaceId !== workspaceId);
      return this.takeEach(mine.map((s) => s.event));
    });
  }

  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const turn = this.serial.then(work);
    this.serial = turn.catch(() => undefined);
    return turn;
  }

  private async takeEach(events: readonly EventEnvelope[]): Promise<number> {
    let queued = 0;
    for (const event of events) queued += await this.takeNow(event);
    return queued;
  }

  private async takeNow(event: EventEnvelope): Promise<number> {
    // The type never depends on the stream's history, only the payload does: read it only for a subscribed type.
    const type = webhookEventOf(event)?.type;
    if (!type) return 0;
    if (!this.presence.mayHaveEndpoints(event.workspaceId)) {
      this.remember(event);
      return 0;
    }
    const subscribers = await this.endpoints.subscribers(event.workspaceId, type);
    if (subscribers.length === 0) return 0;
    const webhookEvent = await this.webhookEvent(event);
    let queued = 0;
    for (const endpoint of subscribers) if ((await this.queue(endpoint, event, webhookEvent, false)) === 'queued') queued++;
    return queued;
  }

  private remember(event: EventEnvelope): void {
    const now = Date.now();
    this.skipped.push({ event, at: now });
    let expired = 0;
    while (expired < this.skipped.length && (this.skipped[expired].at < now - SKIPPED_MEMORY_MS || this.skipped.length - expired > SKIPPED_MEMORY_MAX)) expired++;
    if (expired > 0) this.skipped.splice(0, expired);
  }

  /** The event's webhook event, with its stream read up to and including it where the payload needs it (what the stream said then, replayed or not). */
  private async webhookEvent(event: EventEnvelope): Promise<WebhookEvent | null> {
    if (!needsStreamHistory(event.type)) return webhookEventOf(event);
    const revision = BigInt(event.revision);
    const history = (await this.events.readStream(event.streamId)).filter((recorded) => recorded.revision <= revision).map(toEnvelope);
    return webhookEventOf(event, history);
  }

  private async queue(endpoint: WebhookEndpoint, event: EventEnvelope, webhookEvent: WebhookEvent | null, requeueFailed: boolean): Promise<QueueOutcome | null> {
    if (!webhookEvent || !endpoint.events.includes(webhookEvent.type)) return null;
    const now = this.now();
    return this.deliveries.queue(
      { endpointId: endpoint.id, eventId: event.eventId, eventType: webhookEvent.type, position: event.position, payload: JSON.stringify(payloadOf(event, webhookEvent)) },
      now,
      new Date(now.getTime() + RETRY_WINDOW_MS),
      requeueFailed,
    );
  }

  /**
   * Every stored event of the endpoint's workspace after `afterPosition` (exclusive)
   * or at or after `since`, to this endpoint: new deliveries queued, failed ones
   * queued again, delivered and pending ones left alone. Reads the feed from the
   * position, or for a time from the event store's position before it (the events
   * just before the time it also reads are left out by their createdAt): the event
   * store is the record. Standard Webhooks ("Visibility into failures and manual
   * retries") asks for a way to replay failures within a range after an outage.
   */
  async replay(endpoint: WebhookEndpoint, start: { afterPosition: GlobalPosition } | { since: Date }): Promise<ReplayWebhookReply> {
    const reply: ReplayWebhookReply = { queued: 0, alreadyDelivered: 0, lastPosition: null };
    let after: GlobalPosition = 'afterPosition' in start ? start.afterPosition : await this.events.positionBefore(start.since);
    for (;;) {
      const batch = await this.events.readAll(after, REPLAY_BATCH);
      if (batch.length === 0) return reply;
      for (const recorded of batch) {
        if (recorded.metadata.workspaceId !== endpoint.workspaceId) continue;
        if ('since' in start && recorded.createdAt < start.since) continue;
        const event = toEnvelope(recorded);
        const type = webhookEventOf(event)?.type;
        if (!type || !endpoint.events.includes(type)) continue;
        const outcome = await this.queue(endpoint, event, await this.webhookEvent(event), true);
        if (outcome === 'queued' || outcome === 'requeued') reply.queued++;
        if (outcome === 'delivered') reply.alreadyDelivered++;
      }
      const last = batch[batch.length - 1].position;
      if (comparePositions(last, after) <= 0) return reply;
      after = last;
      reply.lastPosition = formatPosition(last);
    }
  }
}

import { BatchHandler, CheckpointStore, toEnvelope } from '@app/event-store';
import { WebhookFanout } from './webhook-fanout';

/** The live fan-out's checkpoint and leadership name (FeedProcessor). */
export const WEBHOOKS_FEED = 'webhooks';

/**
 * The live fan-out's batch handler, for a FeedProcessor following the event
 * store's feed: queues the batch's deliveries in store order (the events of a
 * workspace without endpoints are passed over in memory), then saves the
 * checkpoint once, past the batch. `queued` is told when any delivery was queued.
 *
 * A crash between the queueing and the checkpoint replays the batch: queueing is
 * idempotent per (endpoint, event id) (WebhookDeliveryStore.queue), so the replay
 * queues only what the crash left out, and nothing twice.
 */
export function webhookFeedHandler(fanout: WebhookFanout, checkpoints: CheckpointStore, queued: () => void): BatchHandler {
  return async (events) => {
    const count = await fanout.take(events.map(toEnvelope));
    await checkpoints.save(WEBHOOKS_FEED, events[events.length - 1].position);
    if (count > 0) queued();
  };
}

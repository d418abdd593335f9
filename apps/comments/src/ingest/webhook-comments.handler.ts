import { Injectable } from '@nestjs/common';
import { IngestCommentsReply, IngestWebhookCommentsCommand, isPlatform, Platform } from '@app/contracts';
import { CommentIngestion } from './comment-ingestion';
import { PublishedItems } from './published-items';

/** Deliveries taken into one round: bounds the comments one look-up asks about. */
const MAX_DELIVERIES_PER_ROUND = 500;

interface Waiting {
  command: IngestWebhookCommentsCommand & { platform: Platform };
  requestId: string | undefined;
  resolve: (reply: IngestCommentsReply) => void;
  reject: (error: unknown) => void;
}

/**
 * Comments a platform pushed under one of its items: stored for every
 * workspace that published that item; under anything else, ignored.
 *
 * A webhook usually carries one comment, and they come many at a time. So,
 * like the poll (one call per item, however many comments), deliveries that
 * arrive while a round is being ingested (or in the same tick) wait and go
 * together in the next round: one look-up of the item per item, one look-up of
 * the comments already known, appends grouped (CommentIngestion.ingestDeliveries).
 * Each delivery gets its own count, and its events its own request id.
 */
@Injectable()
export class WebhookCommentsHandler {
  private waiting: Waiting[] = [];
  private ingesting = false;

  constructor(
    private readonly items: PublishedItems,
    private readonly ingestion: CommentIngestion,
  ) {}

  handle(command: IngestWebhookCommentsCommand, requestId: string | undefined): Promise<IngestCommentsReply> {
    const { platform } = command;
    if (!isPlatform(platform)) return Promise.resolve({ received: 0 });
    return new Promise((resolve, reject) => {
      this.waiting.push({ command: { ...command, platform }, requestId, resolve, reject });
      if (!this.ingesting) {
        this.ingesting = true;
        queueMicrotask(() => void this.ingestWaiting());
      }
    });
  }

  private async ingestWaiting(): Promise<void> {
    while (this.waiting.length > 0) {
      const round = this.waiting.splice(0, MAX_DELIVERIES_PER_ROUND);
      const byItem = new Map<string, Waiting[]>();
      for (const waiting of round) {
        const key = `${waiting.command.platform} ${waiting.command.platformPostId}`;
        const sameItem = byItem.get(key);
        if (sameItem) sameItem.push(waiting);
        else byItem.set(key, [waiting]);
      }
      await Promise.all([...byItem.values()].map((deliveries) => this.ingestUnderOneItem(deliveries)));
    }
    this.ingesting = false;
  }

  /** Deliveries naming the same item: settled together, each with what it stored; a failure fails them all (the platform retries). */
  private async ingestUnderOneItem(deliveries: Waiting[]): Promise<void> {
    try {
      const { platform, platformPostId } = deliveries[0].command;
      const received = deliveries.map(() => 0);
      for (const item of await this.items.withPlatformId(platform, platformPostId)) {
        const stored = await this.ingestion.ingestDeliveries(item, deliveries.map((d) => ({ comments: d.command.comments, requestId: d.requestId })));
        stored.forEach((count, i) => (received[i] += count));
      }
      deliveries.forEach((delivery, i) => delivery.resolve({ received: received[i] }));
    } catch (error) {
      for (const delivery of deliveries) delivery.reject(error);
    }
  }
}

import { Injectable } from '@nestjs/common';
import { IngestCommentsReply, IngestWebhookCommentsCommand, isPlatform } from '@app/contracts';
import { CommentIngestion } from './comment-ingestion';
import { PublishedItems } from './published-items';

/**
 * Comments a platform pushed under one of its items: stored for every
 * workspace that published that item; under anything else, ignored.
 */
@Injectable()
export class WebhookCommentsHandler {
  constructor(
    private readonly items: PublishedItems,
    private readonly ingestion: CommentIngestion,
  ) {}

  async handle(command: IngestWebhookCommentsCommand, requestId: string | undefined): Promise<IngestCommentsReply> {
    if (!isPlatform(command.platform)) return { received: 0 };
    let received = 0;
    for (const item of await this.items.withPlatformId(command.platform, command.platformPostId)) {
      received += await this.ingestion.ingest(item, command.comments, requestId);
    }
    return { received };
  }
}

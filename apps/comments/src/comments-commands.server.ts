import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { NatsConnection, Subscription } from 'nats';
import { IngestWebhookCommentsCommand, ReplyToCommentCommand, Subjects } from '@app/contracts';
import { NATS_CONNECTION, serveCommands } from '@app/messaging';
import { WebhookCommentsHandler } from './ingest/webhook-comments.handler';
import { ReplyToCommentHandler } from './reply/reply-to-comment.handler';

/** Answers the comments commands on NATS, in the `comments` queue group shared by every replica. */
@Injectable()
export class CommentsCommandsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(CommentsCommandsServer.name);
  private subscriptions: Subscription[] = [];

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly subjects: Subjects,
    private readonly webhookComments: WebhookCommentsHandler,
    private readonly replies: ReplyToCommentHandler,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.subscriptions = serveCommands(
      this.nc,
      this.subjects,
      'comments',
      {
        'comments.ingest-webhook': (payload, { requestId }) => this.webhookComments.handle(payload as IngestWebhookCommentsCommand, requestId),
        'comments.reply': (payload, { requestId }) => this.replies.reply(payload as ReplyToCommentCommand, requestId),
      },
      (error, name) => this.logger.error(`${name} failed: ${error instanceof Error ? error.stack : String(error)}`),
    );
    await this.nc.flush();
  }

  onApplicationShutdown(): void {
    for (const subscription of this.subscriptions) subscription.unsubscribe();
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { NatsConnection } from 'nats';
import { IngestWebhookCommentsCommand, ReplyToCommentCommand, Subjects } from '@app/contracts';
import { CommandHandlers, CommandsServer, NATS_CONNECTION } from '@app/messaging';
import { WebhookCommentsHandler } from './ingest/webhook-comments.handler';
import { ReplyToCommentHandler } from './reply/reply-to-comment.handler';

/** Answers the comments commands on NATS, in the `comments` queue group shared by every replica. */
@Injectable()
export class CommentsCommandsServer extends CommandsServer {
  constructor(
    @Inject(NATS_CONNECTION) nc: NatsConnection,
    subjects: Subjects,
    private readonly webhookComments: WebhookCommentsHandler,
    private readonly replies: ReplyToCommentHandler,
  ) {
    super(nc, subjects, 'comments');
  }

  protected handlers(): CommandHandlers {
    return {
      'comments.ingest-webhook': (payload, { requestId }) => this.webhookComments.handle(payload as IngestWebhookCommentsCommand, requestId),
      'comments.reply': (payload, { requestId }) => this.replies.reply(payload as ReplyToCommentCommand, requestId),
    };
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { NatsConnection } from 'nats';
import { Subjects } from '@app/contracts';
import { CommandHandlers, CommandsServer, NATS_CONNECTION } from '@app/messaging';
import { WebhookCommentsHandler } from './ingest/webhook-comments.handler';
import { DeleteReplyHandler } from './moderation/delete-reply.handler';
import { SetCommentHiddenHandler } from './moderation/set-comment-hidden.handler';
import { ReplyToCommentHandler } from './reply/reply-to-comment.handler';

/** Answers the comments commands on NATS, in the `comments` queue group shared by every replica. */
@Injectable()
export class CommentsCommandsServer extends CommandsServer {
  constructor(
    @Inject(NATS_CONNECTION) nc: NatsConnection,
    subjects: Subjects,
    private readonly webhookComments: WebhookCommentsHandler,
    private readonly replies: ReplyToCommentHandler,
    private readonly hiding: SetCommentHiddenHandler,
    private readonly replyDeletion: DeleteReplyHandler,
  ) {
    super(nc, subjects, 'comments');
  }

  protected handlers(): CommandHandlers {
    return {
      'comments.ingest-webhook': (payload, { requestId }) => this.webhookComments.handle(payload, requestId),
      'comments.reply': (payload, { requestId }) => this.replies.reply(payload, requestId),
      'comments.hide': (payload, { requestId }) => this.hiding.setHidden(payload, true, requestId),
      'comments.unhide': (payload, { requestId }) => this.hiding.setHidden(payload, false, requestId),
      'comments.delete-reply': (payload, { requestId }) => this.replyDeletion.deleteReply(payload, requestId),
    };
  }
}

import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { DeleteCommentReplyCommand, DeleteCommentReplyReply } from '@app/contracts';
import { ConnectorRegistry } from '@app/platforms';
import { checkCommentRequest, CommentActor } from '../acting/comment-actor';
import { DeleteReply } from '../domain/comment.commands';
import { commentDecider } from '../domain/comment.decider';
import { CommentCommandRunner } from '../domain/comment-command-runner';

/**
 * Deletes one of the workspace's replies from its platform, as the account
 * that wrote it, then records it (CommentReplyDeleted). Decided on the stored
 * comment before the platform is called: an unknown reply or a platform
 * without the capability is refused, a reply already deleted is a success
 * with no call and no event.
 */
@Injectable()
export class DeleteReplyHandler {
  constructor(
    private readonly actor: CommentActor,
    private readonly runner: CommentCommandRunner,
    private readonly connectors: ConnectorRegistry,
    private readonly config: AppConfig,
  ) {}

  async deleteReply(command: DeleteCommentReplyCommand, requestId: string | undefined): Promise<DeleteCommentReplyReply> {
    const { workspaceId } = command;
    const request = { platform: command.platform, commentId: command.commentId, replyId: command.replyId };
    checkCommentRequest(request);
    const comment = await this.actor.storedComment(workspaceId, request.platform, request.commentId);
    const decision = (now: Date): DeleteReply => ({ type: 'DeleteReply', replyPlatformId: request.replyId, now });
    const [planned] = commentDecider.decide(decision(this.config.now()), comment);
    if (planned?.type !== 'CommentReplyDeleted') return { position: null };
    const account = await this.actor.actingAccount(workspaceId, comment, planned.data.accountId);

    const connector = this.connectors.get(account.platform);
    const ref = { platformCommentId: request.replyId, platformPostId: comment.data.platformPostId };
    await this.actor.callAs(account.id, (acting) => connector.deleteComment(acting, ref));
    const { position } = await this.runner.run(comment.data.commentId, workspaceId, decision, requestId);
    return { position };
  }
}

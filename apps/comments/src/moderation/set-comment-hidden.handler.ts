import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { ModerateCommentCommand, ModerateCommentReply } from '@app/contracts';
import { ConnectorRegistry } from '@app/platforms';
import { checkCommentRequest, CommentActor } from '../acting/comment-actor';
import { SetCommentHidden } from '../domain/comment.commands';
import { commentDecider } from '../domain/comment.decider';
import { CommentCommandRunner } from '../domain/comment-command-runner';

/**
 * Hides a stored comment on its platform, or shows it again, then records it
 * (CommentHidden / CommentUnhidden). The decision is taken on the stored
 * comment before the platform is called: a platform without the capability
 * is refused, and a comment already so is a success with no call and no event.
 * Both calls are idempotent on the platforms, so a crash between the platform's
 * answer and the record is repaired by the client's retry.
 */
@Injectable()
export class SetCommentHiddenHandler {
  constructor(
    private readonly actor: CommentActor,
    private readonly runner: CommentCommandRunner,
    private readonly connectors: ConnectorRegistry,
    private readonly config: AppConfig,
  ) {}

  async setHidden(command: ModerateCommentCommand, hidden: boolean, requestId: string | undefined): Promise<ModerateCommentReply> {
    const { workspaceId, body } = command;
    checkCommentRequest(body);
    const comment = await this.actor.storedComment(workspaceId, body.platform, body.commentId);
    const accountId = body.accountId ?? comment.data.accountId;
    const decision = (now: Date): SetCommentHidden => ({ type: hidden ? 'HideComment' : 'UnhideComment', accountId, now });
    const planned = commentDecider.decide(decision(this.config.now()), comment);
    const account = await this.actor.actingAccount(workspaceId, comment, accountId);
    if (planned.length === 0) return { hidden, position: null };

    const connector = this.connectors.get(account.platform);
    const ref = { platformCommentId: comment.data.platformCommentId, platformPostId: comment.data.platformPostId };
    await this.actor.callAs(account.id, (acting) => connector.setCommentHidden(acting, ref, hidden));
    const { position } = await this.runner.run(comment.data.commentId, workspaceId, decision, requestId);
    return { hidden, position };
  }
}

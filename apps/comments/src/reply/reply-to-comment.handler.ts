import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Account } from '@app/accounts';
import { DomainError, ReplyToCommentCommand, ReplyToCommentReply } from '@app/contracts';
import { ConnectorRegistry, PublishOutcome } from '@app/platforms';
import { spendXPool, X_QUOTA_EXHAUSTED, XPool } from '@app/quotas';
import { checkCommentRequest, CommentActor } from '../acting/comment-actor';
import { checkCapability } from '../domain/comment-capability';
import { CommentCommandRunner } from '../domain/comment-command-runner';
import { ExistingComment } from '../domain/comment.state';
import { checkReplyMessage, startedReplyOf } from '../domain/decide-reply';
import { RecentReplies } from '../ingest/recent-replies';
import { findStartedReply } from './started-reply-lookup';

/**
 * Posts a public reply to a stored comment. Every rule is checked before the platform is
 * called (CommentActor), so a refusal sends nothing. The reply is started (CommentReplyStarted)
 * before the one irreversible call and recorded (CommentReplied) once its id is known, so a
 * crash or a lost answer in between leaves a started reply: the client's retry (same account,
 * same text) looks it up on the platform and records what it finds, and posts only when the
 * platform never made it. A platform refusal records no reply (and on X gives the pool unit back).
 */
@Injectable()
export class ReplyToCommentHandler {
  constructor(
    private readonly actor: CommentActor,
    private readonly runner: CommentCommandRunner,
    private readonly connectors: ConnectorRegistry,
    private readonly xPool: XPool,
    private readonly recentReplies: RecentReplies,
  ) {}

  async reply(command: ReplyToCommentCommand, requestId: string | undefined): Promise<ReplyToCommentReply> {
    const { workspaceId, body } = command;
    checkCommentRequest(body);
    checkReplyMessage(body.message);
    const comment = await this.actor.storedComment(workspaceId, body.platform, body.commentId);
    checkCapability(comment, 'reply');
    const account = await this.actor.actingAccount(workspaceId, comment, body.accountId);

    const { started, retry, recordedReplyIds } = await this.start(comment, account.id, body.message, requestId);
    const found = retry ? await this.findStarted(account.id, comment, body.message, recordedReplyIds) : null;
    const replyPlatformId = found ?? (await this.post(workspaceId, account, comment, body.message, started.replyKey));
    this.recentReplies.add(account.platform, replyPlatformId);

    const { position } = await this.runner.run(
      comment.data.commentId,
      workspaceId,
      (now) => ({ type: 'RecordReply', accountId: account.id, repliedAs: account.handle, replyPlatformId, message: body.message, replyKey: started.replyKey, reconciled: found !== null, now }),
      requestId,
    );
    return { repliedAs: account.handle, replyPlatformId, position: position! };
  }

  /** Records the start of the reply; a reply of the same account and text started before and never recorded is continued (`retry`). */
  private async start(comment: ExistingComment, accountId: string, message: string, requestId: string | undefined) {
    const replyKey = randomUUID();
    const { state } = await this.runner.run(comment.data.commentId, comment.data.workspaceId, (now) => ({ type: 'StartReply', accountId, message, replyKey, now }), requestId);
    const started = state.exists ? startedReplyOf(state, accountId, message) : undefined;
    if (!state.exists || !started) throw new Error(`reply to comment ${comment.data.commentId} not started`);
    return { started, retry: started.replyKey !== replyKey, recordedReplyIds: state.replies.map((reply) => reply.replyPlatformId) };
  }

  /** A started reply's platform id if the platform made it (its answer was lost, or the process stopped before recording it). */
  private async findStarted(accountId: string, comment: ExistingComment, message: string, recordedReplyIds: string[]): Promise<string | null> {
    const connector = this.connectors.get(comment.data.platform);
    const { platformCommentId, platformPostId } = comment.data;
    const found = await this.actor.callAs(accountId, async (acting) =>
      findStartedReply(await connector.listComments(acting, platformPostId), { platformCommentId, message, identity: acting.identity, recordedReplyIds }),
    );
    return found?.platformCommentId ?? null;
  }

  /** The one irreversible call; its idempotency key is the started reply's (Mastodon deduplicates a resend on it). */
  private async post(workspaceId: string, account: Account, comment: ExistingComment, message: string, replyKey: string): Promise<string> {
    const connector = this.connectors.get(account.platform);
    const target = { kind: 'comment' as const, platformCommentId: comment.data.platformCommentId, platformPostId: comment.data.platformPostId };
    const idempotencyKey = `reply:${comment.data.commentId}:${replyKey}`;
    const outcome = await this.actor.callAs(account.id, (acting) =>
      spendXPool(this.xPool, workspaceId, account.platform, () => connector.comment(acting, target, message, idempotencyKey)),
    );
    return publishedIdOf(outcome);
  }
}

/** The reply's platform id; a refusal or a lost answer becomes the error the client sees. */
function publishedIdOf(outcome: PublishOutcome): string {
  if (outcome.status === 'published') return outcome.platformPostId;
  if (outcome.status === 'unknown') {
    throw new DomainError('platform_outcome_unknown', `the platform did not answer: ${outcome.error.message}; the reply may be live, check before sending it again`);
  }
  if (outcome.error.code === X_QUOTA_EXHAUSTED.code) throw new DomainError('x_quota_exhausted', outcome.error.message);
  throw new DomainError('platform_rejected', `the platform refused the reply: ${outcome.error.message}`, { details: outcome.error });
}

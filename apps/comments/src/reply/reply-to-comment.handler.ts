import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { DomainError, findUnstorableString, isPlatform, Platform, ReplyToCommentBody, ReplyToCommentCommand, ReplyToCommentReply } from '@app/contracts';
import { PG_POOL } from '@app/database';
import { ConnectorRegistry, PublishOutcome } from '@app/platforms';
import { spendXPool, X_QUOTA_EXHAUSTED, XPool } from '@app/quotas';
import { AccountStore } from '@app/accounts';
import { AccountCredentials, isUnavailable } from '@app/credentials';
import { checkReply, checkReplyMessage, ExistingComment, unknownComment } from '../domain/comment.decider';
import { CommentCommandRunner } from '../domain/comment-command-runner';
import { commentIdOf } from '../domain/comment-id';
import { RecentReplies } from '../ingest/recent-replies';

/**
 * Posts a public reply to a stored comment, then records it (CommentReplied).
 * Every rule is checked before the platform is called, so a refusal sends
 * nothing; a platform refusal records nothing (and on X gives the pool unit back).
 */
@Injectable()
export class ReplyToCommentHandler {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly runner: CommentCommandRunner,
    private readonly accounts: AccountStore,
    private readonly credentials: AccountCredentials,
    private readonly connectors: ConnectorRegistry,
    private readonly xPool: XPool,
    private readonly recentReplies: RecentReplies,
  ) {}

  async reply(command: ReplyToCommentCommand, requestId: string | undefined): Promise<ReplyToCommentReply> {
    const { workspaceId, body } = command;
    checkStorable(body);
    if (!isPlatform(body.platform)) throw new DomainError('unknown_platform', `${body.platform} is not a platform this service knows`, { details: { platform: body.platform } });
    checkReplyMessage(body.message);
    const comment = await this.storedComment(workspaceId, body.platform, body.commentId);
    const accountId = body.accountId ?? comment.data.accountId;
    const account = await this.accounts.get(accountId);
    if (!account || account.workspaceId !== workspaceId) throw new DomainError('unknown_account', `no account ${accountId} in this workspace`, { details: { accountId } });
    checkReply(comment, { accountId, platform: account.platform, connected: account.status !== 'disconnected' });

    const connector = this.connectors.get(account.platform);
    const target = { kind: 'comment' as const, platformCommentId: comment.data.platformCommentId, platformPostId: comment.data.platformPostId };
    const idempotencyKey = `reply:${comment.data.commentId}:${randomUUID()}`;
    const outcome = await this.credentials.run(accountId, (acting) =>
      spendXPool(this.xPool, workspaceId, account.platform, () => connector.comment(acting, target, body.message, idempotencyKey)),
    );
    if (isUnavailable(outcome)) {
      const code = outcome.unavailable.code === 'reauth_required' ? 'account_needs_reauth' : 'account_disconnected';
      throw new DomainError(code, outcome.unavailable.message, { details: { accountId } });
    }
    const replyPlatformId = publishedIdOf(outcome);
    this.recentReplies.add(account.platform, replyPlatformId);

    const { position } = await this.runner.run(
      comment.data.commentId,
      workspaceId,
      (now) => ({ type: 'RecordReply', accountId, repliedAs: account.handle, replyPlatformId, message: body.message, now }),
      requestId,
    );
    return { repliedAs: account.handle, replyPlatformId, position: position! };
  }

  /**
   * The comment commentId names on that platform in this workspace. Not there
   * but stored on another platform: the request named the wrong platform.
   */
  private async storedComment(workspaceId: string, platform: Platform, platformCommentId: string): Promise<ExistingComment> {
    const state = await this.runner.load(commentIdOf(workspaceId, platform, platformCommentId));
    if (state.exists) return state;
    const { rows } = await this.pool.query<{ platform: string }>('SELECT platform FROM comment_views WHERE workspace_id = $1 AND platform_comment_id = $2 LIMIT 1', [
      workspaceId,
      platformCommentId,
    ]);
    if (rows[0]) {
      throw new DomainError('comment_platform_mismatch', `comment ${platformCommentId} is on ${rows[0].platform}, not ${platform}`, { details: { platform: rows[0].platform } });
    }
    throw unknownComment();
  }
}

/**
 * What is recorded after the platform has the reply (the message, the ids) must
 * be text storage can hold: checked first, or a reply would go live and then
 * fail to be recorded, and the client's retry would post it twice.
 */
function checkStorable(body: ReplyToCommentBody): void {
  const unstorable = findUnstorableString(body);
  if (unstorable) throw new DomainError('invalid_body', `${unstorable.path} ${unstorable.reason}`, { details: { field: unstorable.path, reason: unstorable.reason } });
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

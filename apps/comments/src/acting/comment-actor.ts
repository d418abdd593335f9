import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { Account, AccountStore } from '@app/accounts';
import { DomainError, findUnstorableString, isPlatform, Platform, unknownComment, unknownPlatform } from '@app/contracts';
import { AccountCredentials, callAsAccount } from '@app/credentials';
import { PG_POOL } from '@app/database';
import { ConnectorAccount } from '@app/platforms';
import { CommentCommandRunner } from '../domain/comment-command-runner';
import { commentIdOf } from '../domain/comment-id';
import { ExistingComment } from '../domain/comment.state';
import { checkReply } from '../domain/decide-reply';

/**
 * What every action on a stored comment shares (reply, hide, unhide, delete a
 * reply), in the order the rules are checked: the request, the comment it
 * names, the account that acts, then the one call to the platform as that
 * account. Every rule is checked before the platform is called, so a refusal
 * sends nothing and records nothing; what the platform did is recorded after
 * it answered (CommentCommandRunner), so an event never claims what did not happen.
 */
@Injectable()
export class CommentActor {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly runner: CommentCommandRunner,
    private readonly accounts: AccountStore,
    private readonly credentials: AccountCredentials,
  ) {}

  /** The comment `platformCommentId` names on that platform in this workspace. Not there but stored on another platform: the request named the wrong platform. */
  async storedComment(workspaceId: string, platform: Platform, platformCommentId: string): Promise<ExistingComment> {
    const state = await this.runner.load(commentIdOf(workspaceId, platform, platformCommentId));
    if (state.exists) return state;
    await this.refuseOnOtherPlatform(workspaceId, platform, platformCommentId);
    throw unknownComment();
  }

  /** The account that acts: `accountId`, or the one the comment came to; in the workspace, on the comment's platform, connected. */
  async actingAccount(workspaceId: string, comment: ExistingComment, accountId = comment.data.accountId): Promise<Account> {
    const account = await this.accounts.get(accountId);
    if (!account || account.workspaceId !== workspaceId) throw new DomainError('unknown_account', `no account ${accountId} in this workspace`, { details: { accountId } });
    checkReply(comment, { accountId, platform: account.platform, connected: account.status !== 'disconnected' });
    return account;
  }

  /** Calls the platform as the account (callAsAccount: renewed once if refused; every failure the error the client sees). */
  callAs<T>(accountId: string, call: (acting: ConnectorAccount) => Promise<T>): Promise<T> {
    return callAsAccount(this.credentials, accountId, call);
  }

  private async refuseOnOtherPlatform(workspaceId: string, platform: Platform, platformCommentId: string): Promise<void> {
    const { rows } = await this.pool.query<{ platform: string }>('SELECT platform FROM comment_views WHERE workspace_id = $1 AND platform_comment_id = $2 LIMIT 1', [
      workspaceId,
      platformCommentId,
    ]);
    if (rows[0]) {
      throw new DomainError('comment_platform_mismatch', `comment ${platformCommentId} is on ${rows[0].platform}, not ${platform}`, { details: { platform: rows[0].platform } });
    }
  }
}

/**
 * The request's own checks, first: a known platform, and every string text
 * storage can hold. What is recorded after the platform acted (the message,
 * the ids) must be storable, or the action would happen on the platform and
 * then fail to be recorded, and the client's retry would repeat it.
 */
export function checkCommentRequest<T extends { platform: string }>(request: T): asserts request is T & { platform: Platform } {
  const unstorable = findUnstorableString(request);
  if (unstorable) throw new DomainError('invalid_body', `${unstorable.path} ${unstorable.reason}`, { details: { field: unstorable.path, reason: unstorable.reason } });
  if (!isPlatform(request.platform)) throw unknownPlatform(request.platform);
}


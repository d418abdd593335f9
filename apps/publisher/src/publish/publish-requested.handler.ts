import { mediaRefs } from '@app/media';
import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { PublicationState, PublishError, PublishRequestedData, TargetAccount } from '@app/contracts';
import { EventDelivery } from '@app/messaging';
import { countPublishOutcome } from '@app/observability';
import { ConnectorAccount, ConnectorRegistry, PlatformConnector, PublishedLookup } from '@app/platforms';
import { spendXPool, XPool } from '@app/quotas';
import { AccountCredentials, isUnavailable } from '@app/credentials';
import { publishErrors, toAccountOutcome } from './outcomes';
import { AccountOutcome, FirstCommentOutcome, PostsPublication } from './posts-publication.client';
import { reconcile } from './reconcile';

type AccountProgress = PublicationState['accounts'][number];

/**
 * Publishes one PublishRequested: every account of the attempt in parallel,
 * then the first comments under each live item. Idempotent across deliveries:
 * the posts service records the boundary before each platform call (start), so
 * a redelivery skips finished accounts and reconciles interrupted ones instead
 * of publishing again, and first comments already recorded are not posted again.
 */
@Injectable()
export class PublishRequestedHandler {
  private readonly logger = new Logger('Publisher');

  constructor(
    private readonly config: AppConfig,
    private readonly posts: PostsPublication,
    private readonly connectors: ConnectorRegistry,
    private readonly credentials: AccountCredentials,
    private readonly xPool: XPool,
  ) {}

  async handle(delivery: EventDelivery): Promise<void> {
    const job = delivery.envelope.data as PublishRequestedData;
    // Progress reports well inside the ack wait: a live job (a slow platform) is never redelivered.
    const heartbeat = setInterval(delivery.working, Math.max(50, Math.floor(this.config.publisherAckWaitMs / 3)));
    try {
      await settleAll(job.accounts.map((target) => this.publishAccount(job, target, delivery)));
      await this.postFirstComments(job, delivery.signal);
    } catch (error) {
      if (!delivery.isLastDelivery || delivery.signal.aborted) throw error;
      // No delivery comes after this one: end the accounts still open so the post reaches a final state.
      this.logger.error(`post ${job.postId} attempt ${job.attempt} failed on its last delivery, closing its open accounts: ${describe(error)}`);
      await this.abandonOpenAccounts(job);
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async publishAccount(job: PublishRequestedData, target: TargetAccount, delivery: EventDelivery): Promise<void> {
    delivery.signal.throwIfAborted();
    const ids = { postId: job.postId, accountId: target.accountId, attempt: job.attempt };
    const decision = await this.posts.start(ids);
    if (decision === 'done') return;
    const connector = this.connectors.get(target.platform);
    // attemptStartedAt: the same on every delivery, so a reconciliation looks only at what this attempt can have made.
    const request: PublishedLookup = { content: job.content, media: mediaRefs(job.mediaUrls, job.altText), idempotencyKey: `${job.postId}:${target.accountId}:${job.attempt}`, attemptStartedAt: job.requestedAt };
    // in_doubt: an earlier delivery started this account and never recorded an outcome; it may be live, so look, never resend.
    const outcome =
      decision === 'started'
        ? await this.publishOnce(job, connector, target.accountId, request, delivery.isLastDelivery)
        : await reconcile(connector, await this.actingOrNull(target.accountId), request, delivery.isLastDelivery);
    await this.posts.recordOutcome({ ...ids, outcome });
    countPublishOutcome(target.platform, outcome);
  }

  /**
   * The one irreversible call for this account and attempt (after `start` said so), as the
   * account with live credentials: a call refused for its token is made once more after a
   * renewal (a refusal created nothing); an account needing re-authorisation is not called.
   */
  private async publishOnce(job: PublishRequestedData, connector: PlatformConnector, accountId: string, request: PublishedLookup, isLastDelivery: boolean): Promise<AccountOutcome> {
    let actedAs: ConnectorAccount | null = null;
    const outcome = await this.credentials.run(accountId, (account) => {
      actedAs = account;
      return spendXPool(this.xPool, job.workspaceId, account.platform, () => connector.publish(account, request));
    });
    if (isUnavailable(outcome)) return { status: 'failed', error: outcome.unavailable };
    if (outcome.status === 'unknown') return reconcile(connector, actedAs, request, isLastDelivery);
    return toAccountOutcome(outcome);
  }

  /** firstComments under every live item of this attempt, in order per account, accounts in parallel. */
  private async postFirstComments(job: PublishRequestedData, signal: AbortSignal): Promise<void> {
    if (job.firstComments.length === 0) return;
    const { accounts } = await this.posts.publication({ postId: job.postId, attempt: job.attempt });
    const live = new Map(accounts.filter((a) => a.status === 'published' && a.platformPostId).map((a) => [a.accountId, a]));
    const targets = job.accounts.filter((target) => live.has(target.accountId));
    await settleAll(targets.map((target) => this.postFirstCommentsOf(job, target, live.get(target.accountId)!, signal)));
  }

  /**
   * Posts the account's first comments not yet recorded, in order. After one
   * fails, the later ones are recorded as skipped rather than posted: a thread
   * with a gap would read out of order. Other accounts are not affected.
   */
  private async postFirstCommentsOf(job: PublishRequestedData, target: TargetAccount, progress: AccountProgress, signal: AbortSignal): Promise<void> {
    const connector = this.connectors.get(target.platform);
    let failure: { index: number; error: PublishError } | null = null;
    for (const [index, text] of job.firstComments.entries()) {
      if (progress.firstCommentsDone.includes(index)) continue;
      signal.throwIfAborted();
      const outcome: FirstCommentOutcome = failure
        ? { status: 'failed', error: publishErrors.commentSkipped(failure.index, failure.error) }
        : await this.postComment(job, connector, target.accountId, progress.platformPostId!, index, text);
      await this.posts.recordFirstComment({ postId: job.postId, accountId: target.accountId, index, outcome });
      if (outcome.status === 'failed') failure ??= { index, error: outcome.error };
    }
  }

  private async postComment(
    job: PublishRequestedData,
    connector: PlatformConnector,
    accountId: string,
    platformPostId: string,
    index: number,
    text: string,
  ): Promise<FirstCommentOutcome> {
    const idempotencyKey = `${job.postId}:${accountId}:${job.attempt}:comment-${index}`;
    const result = await this.credentials.run(accountId, (account) =>
      spendXPool(this.xPool, job.workspaceId, account.platform, () => connector.comment(account, { kind: 'post', platformPostId }, text, idempotencyKey)),
    );
    if (isUnavailable(result)) return { status: 'failed', error: result.unavailable };
    // No lookup exists for comments: an unknown outcome is recorded as the failure it carries (outcome_unknown), never resent.
    return result.status === 'published' ? { status: 'posted', platformCommentId: result.platformPostId } : { status: 'failed', error: result.error };
  }

  /** Ends every account of the attempt still without an outcome as `publish_abandoned`. */
  private async abandonOpenAccounts(job: PublishRequestedData): Promise<void> {
    const { accounts } = await this.posts.publication({ postId: job.postId, attempt: job.attempt });
    const ofJob = new Set(job.accounts.map((a) => a.accountId));
    const open = accounts.filter((a) => ofJob.has(a.accountId) && (a.status === 'pending' || a.status === 'started'));
    await Promise.all(
      open.map(async (a) => {
        const outcome = { status: 'failed' as const, error: publishErrors.abandoned(a.status === 'started') };
        await this.posts.recordOutcome({ postId: job.postId, accountId: a.accountId, attempt: job.attempt, outcome });
        countPublishOutcome(job.accounts.find((t) => t.accountId === a.accountId)!.platform, outcome);
      }),
    );
  }

  /** The account to look a post up with (reconciliation), or null when it cannot act any more. */
  private async actingOrNull(accountId: string): Promise<ConnectorAccount | null> {
    const account = await this.credentials.acting(accountId);
    return isUnavailable(account) ? null : account;
  }
}

/** Waits for every task (one failing must not cut the others short), then fails with the first failure. */
async function settleAll(tasks: Promise<void>[]): Promise<void> {
  const results = await Promise.allSettled(tasks);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

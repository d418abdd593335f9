import { randomUUID } from 'node:crypto';
import { mediaRefs } from '@app/media';
import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { abandonedAccountError, hasReplyChains, PublicationState, publicationFor, PublishError, PublishRequestedData, TargetAccount } from '@app/contracts';
import { EventDelivery } from '@app/messaging';
import { countPublishOutcome } from '@app/observability';
import { AccountThread, ConnectorAccount, ConnectorRegistry, PlatformConnector, PublishedLookup, PublishOutcome, threadFor } from '@app/platforms';
import { spendXPool, XPool, XPoolDrawAhead } from '@app/quotas';
import { AccountCredentials, AccountUnavailable, isUnavailable } from '@app/credentials';
import { publishErrors, toAccountOutcome } from './outcomes';
import { AccountOutcome, FirstCommentOutcome, PostsPublication } from './posts-publication.client';
import { reconcile } from './reconcile';

type AccountProgress = PublicationState['accounts'][number];

/** What an account's platform call needs, made ready while its start is decided. */
interface CallReadiness {
  acting: Promise<ConnectorAccount | AccountUnavailable>;
  xPool: XPoolDrawAhead;
}

const orNull = (account: ConnectorAccount | AccountUnavailable): ConnectorAccount | null => (isUnavailable(account) ? null : account);

/**
 * Publishes one PublishRequested: every account of the attempt in parallel,
 * then what follows each live item (its thread, then its first comments).
 * Idempotent across deliveries: the posts service records the boundary before
 * each platform call (start), so a redelivery skips finished accounts and
 * reconciles interrupted ones instead of publishing again, and thread parts and
 * first comments already started are not posted again.
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
    // This run's own id, kept in memory only: a redelivery (after a crash, this run's call may have gone out) gets another.
    const deliveryId = randomUUID();
    // Progress reports well inside the ack wait: a live job (a slow platform) is never redelivered.
    const heartbeat = setInterval(delivery.working, Math.max(50, Math.floor(this.config.publisherAckWaitMs / 3)));
    try {
      const threads = accountThreads(job);
      await settleAll(job.accounts.map((target) => this.publishAccount(job, target, threads.get(target.accountId)!, delivery, deliveryId)));
      await this.postFollowUps(job, threads, delivery.signal);
    } catch (error) {
      if (!delivery.isLastDelivery || delivery.signal.aborted) throw error;
      // No delivery comes after this one: end the accounts still open so the post reaches a final state.
      this.logger.error(`post ${job.postId} attempt ${job.attempt} failed on its last delivery, closing its open accounts: ${describe(error)}`);
      await this.abandonOpenAccounts(job);
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async publishAccount(job: PublishRequestedData, target: TargetAccount, thread: AccountThread, delivery: EventDelivery, deliveryId: string): Promise<void> {
    delivery.signal.throwIfAborted();
    // What the platform call needs is made ready while the posts service decides the start, off the way to the
    // call (a publication waits for its slowest account): the account's credentials, and for X a unit of its
    // pool (given back if no call spends it).
    const ready: CallReadiness = { acting: this.credentials.acting(target.accountId), xPool: new XPoolDrawAhead(this.xPool, job.workspaceId, target.platform) };
    // A failed read is rethrown where the call awaits it, or dropped when the account needs no call.
    ready.acting.catch(() => undefined);
    try {
      await this.startAndPublish(job, target, thread, delivery, deliveryId, ready);
    } finally {
      await ready.xPool.release().catch((error: unknown) => this.logger.warn(`post ${job.postId}: an unspent X pool draw was not given back: ${describe(error)}`));
    }
  }

  private async startAndPublish(job: PublishRequestedData, target: TargetAccount, thread: AccountThread, delivery: EventDelivery, deliveryId: string, ready: CallReadiness): Promise<void> {
    const ids = { postId: job.postId, accountId: target.accountId, attempt: job.attempt };
    const decision = await this.posts.start({ ...ids, deliveryId });
    if (decision === 'done') return;
    const connector = this.connectors.get(target.platform);
    // What this account publishes (its overrides applied): the same function the posts service validated it with.
    const { mediaUrls, altText } = publicationFor(job, target);
    // attemptStartedAt: the same on every delivery, so a reconciliation looks only at what this attempt can have made.
    const request: PublishedLookup = {
      // Its text: with autoSplit, the first part of its thread.
      content: thread.content,
      media: mediaRefs(mediaUrls, altText),
      options: job.platformOptions?.[target.platform],
      idempotencyKey: `${job.postId}:${target.accountId}:${job.attempt}`,
      attemptStartedAt: job.requestedAt,
    };
    // in_doubt: another delivery started this account and never recorded an outcome; it may be live, so look, never resend.
    const outcome =
      decision === 'started'
        ? await this.publishOnce(connector, request, delivery.isLastDelivery, ready)
        : await reconcile(connector, orNull(await ready.acting), request, delivery.isLastDelivery);
    await this.posts.recordOutcome({ ...ids, outcome });
    countPublishOutcome(target.platform, outcome);
  }

  /**
   * The one irreversible call for this account and attempt (after `start` said so), as the
   * account with live credentials: a call refused for its token is made once more after a
   * renewal (a refusal created nothing); an account needing re-authorisation is not called.
   */
  private async publishOnce(connector: PlatformConnector, request: PublishedLookup, isLastDelivery: boolean, ready: CallReadiness): Promise<AccountOutcome> {
    let actedAs: ConnectorAccount | null = null;
    const outcome = await this.credentials.runAs(await ready.acting, (account) => {
      actedAs = account;
      return ready.xPool.spend(() => connector.publish(account, request));
    });
    if (isUnavailable(outcome)) return { status: 'failed', error: outcome.unavailable };
    if (outcome.status === 'unknown') return reconcile(connector, actedAs, request, isLastDelivery);
    return toAccountOutcome(outcome);
  }

  /**
   * What follows every live item of this attempt (a retry's resumed threads included): per account
   * in order its thread parts, then its first comments; accounts in parallel.
   */
  private async postFollowUps(job: PublishRequestedData, threads: Map<string, AccountThread>, signal: AbortSignal): Promise<void> {
    const threaded = (job.thread ?? []).length > 0 || job.autoSplit === true;
    const followed = [...job.accounts, ...(job.threadResumes ?? [])].filter((target) => threaded || publicationFor(job, target).firstComments.length > 0);
    if (followed.length === 0) return;
    const { accounts } = await this.posts.publication({ postId: job.postId, attempt: job.attempt });
    const live = new Map(accounts.filter((a) => a.status === 'published' && a.platformPostId).map((a) => [a.accountId, a]));
    const targets = followed.filter((target) => live.has(target.accountId));
    await settleAll(
      targets.map(async (target) => {
        await this.postThreadOf(job, target, threads.get(target.accountId)!, live.get(target.accountId)!, signal);
        await this.postFirstCommentsOf(job, target, live.get(target.accountId)!, signal);
      }),
    );
  }

  /**
   * Posts the account's thread parts not yet recorded, in order: in a reply chain each part replies
   * to the one before it (the first to the post), elsewhere each is a comment under the post. Each
   * part is sent once (postOnce). The thread stops at a failed part, since nothing can reply past a
   * gap; a retry resumes it there.
   */
  private async postThreadOf(job: PublishRequestedData, target: TargetAccount, thread: AccountThread, progress: AccountProgress, signal: AbortSignal): Promise<void> {
    const connector = this.connectors.get(target.platform);
    const recorded = new Map(progress.threadDone.map((part) => [part.index, part]));
    let previous = progress.platformPostId!;
    for (const [index, part] of thread.parts.entries()) {
      const done = recorded.get(index);
      if (done?.status === 'posted') {
        previous = done.platformPostId!;
        continue;
      }
      if (done?.status === 'failed') return;
      signal.throwIfAborted();
      // The key leaves the attempt out: a retry resending a part in doubt is then deduplicated where the platform can (Mastodon).
      const idempotencyKey = `${job.postId}:${target.accountId}:thread-${index}`;
      const replyTo = previous;
      const outcome = await this.postOnce(job, { accountId: target.accountId, kind: 'threadPart', index }, done?.status === 'started', (account) =>
        hasReplyChains(target.platform)
          ? // A part is a post of its own there: it keeps the post's options (a private Mastodon thread stays private).
            connector.publish(account, { content: part.content, media: mediaRefs(part.mediaUrls, part.altText), idempotencyKey, replyTo, options: job.platformOptions?.[target.platform] })
          : connector.comment(account, { kind: 'post', platformPostId: progress.platformPostId! }, part.content, idempotencyKey),
      );
      if (outcome.status === 'failed') return;
      previous = outcome.platformCommentId;
    }
  }

  /**
   * Posts the account's first comments not yet recorded, in order, each sent once (postOnce).
   * After one fails, the later ones are recorded as skipped rather than posted: a thread
   * with a gap would read out of order. Other accounts are not affected.
   */
  private async postFirstCommentsOf(job: PublishRequestedData, target: TargetAccount, progress: AccountProgress, signal: AbortSignal): Promise<void> {
    const connector = this.connectors.get(target.platform);
    const recorded = new Map(progress.firstCommentsDone.map((comment) => [comment.index, comment.status]));
    let failure: { index: number; error: PublishError } | null = null;
    for (const [index, text] of publicationFor(job, target).firstComments.entries()) {
      const done = recorded.get(index);
      if (done === 'posted' || done === 'failed') continue;
      signal.throwIfAborted();
      const item = { accountId: target.accountId, index };
      if (failure) {
        await this.posts.recordFirstComment({ postId: job.postId, ...item, outcome: { status: 'failed', error: publishErrors.commentSkipped(failure.index, failure.error) } });
        continue;
      }
      const idempotencyKey = `${job.postId}:${target.accountId}:${job.attempt}:comment-${index}`;
      const outcome = await this.postOnce(job, item, done === 'started', (account) =>
        connector.comment(account, { kind: 'post', platformPostId: progress.platformPostId! }, text, idempotencyKey),
      );
      if (outcome.status === 'failed') failure = { index, error: outcome.error };
    }
  }

  /**
   * Sends one item after the account's post (a first comment, a thread part) at most once. Like an
   * account's publication it has two boundaries: its start is recorded before the call, its id (or
   * failure) after. An item another delivery started (`started`, or a start this run fails to
   * record) may be live: it is recorded outcome_unknown, never sent again.
   */
  private async postOnce(
    job: PublishRequestedData,
    item: { accountId: string; kind?: 'threadPart'; index: number },
    started: boolean,
    call: (account: ConnectorAccount) => Promise<PublishOutcome>,
  ): Promise<FirstCommentOutcome> {
    const ids = { postId: job.postId, ...item };
    const owned = !started && (await this.posts.recordFirstComment({ ...ids, outcome: { status: 'started' } })).recorded;
    const what = item.kind === 'threadPart' ? 'thread part' : 'first comment';
    const outcome: FirstCommentOutcome = owned
      ? await this.postAfter(job, item.accountId, call)
      : { status: 'failed', error: publishErrors.outcomeUnknown(`${what} ${item.index} was started by another delivery`) };
    await this.posts.recordFirstComment({ ...ids, outcome });
    return outcome;
  }

  /**
   * One item after the account's post (a first comment, a thread part), as the account with live
   * credentials. No lookup exists for these: an unknown outcome is recorded as the failure it
   * carries (outcome_unknown), never resent.
   */
  private async postAfter(job: PublishRequestedData, accountId: string, call: (account: ConnectorAccount) => Promise<PublishOutcome>): Promise<FirstCommentOutcome> {
    const result = await this.credentials.run(accountId, (account) => spendXPool(this.xPool, job.workspaceId, account.platform, () => call(account)));
    if (isUnavailable(result)) return { status: 'failed', error: result.unavailable };
    return result.status === 'published' ? { status: 'posted', platformCommentId: result.platformPostId, url: result.url } : { status: 'failed', error: result.error };
  }

  /** Ends every account of the attempt still without an outcome: `publish_abandoned` if never started, else `outcome_unknown`. */
  private async abandonOpenAccounts(job: PublishRequestedData): Promise<void> {
    const { accounts } = await this.posts.publication({ postId: job.postId, attempt: job.attempt });
    const ofJob = new Set(job.accounts.map((a) => a.accountId));
    const open = accounts.filter((a) => ofJob.has(a.accountId) && (a.status === 'pending' || a.status === 'started'));
    await Promise.all(
      open.map(async (a) => {
        const outcome = { status: 'failed' as const, error: abandonedAccountError({ started: a.status === 'started' }) };
        await this.posts.recordOutcome({ postId: job.postId, accountId: a.accountId, attempt: job.attempt, outcome });
        countPublishOutcome(job.accounts.find((t) => t.accountId === a.accountId)!.platform, outcome);
      }),
    );
  }

  /** The account to look a post up with (reconciliation), or null when it cannot act any more. */
}

/**
 * The thread each account of the job publishes (its publication's text, auto-split where asked,
 * then the parts after it), by account id: split once per account and delivery, since the post
 * and its thread parts read the same answer.
 */
function accountThreads(job: PublishRequestedData): Map<string, AccountThread> {
  const targets = [...job.accounts, ...(job.threadResumes ?? [])];
  return new Map(targets.map((target) => [target.accountId, threadFor({ content: publicationFor(job, target).content, thread: job.thread, autoSplit: job.autoSplit }, target.platform)]));
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

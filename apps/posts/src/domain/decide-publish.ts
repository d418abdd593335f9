import { DomainError, PostEvent, publicationFor, THREAD_MAX_PARTS } from '@app/contracts';
import { PublishPost, RecordAccountOutcome, RecordFirstComment, RetryPublish, StartAccountPublish } from './post.commands';
import { checkMayPublishNow } from './decide-review';
import { ExistingPost, evolve } from './post.state';
import { AccountProgress, failureSummary, firstPublishedAt, hasOutcome, overallStatus, threadStopped } from './publication';
import { publishRequested } from './publish-requested';

export function decidePublish(command: PublishPost, state: ExistingPost): PostEvent[] {
  if (state.status !== 'draft' && state.status !== 'scheduled') {
    throw new DomainError('post_not_publishable', `the post is ${state.status}; only a draft or a scheduled post can be published`);
  }
  checkMayPublishNow(command.review, state);
  return [publishRequested(state.data, state.attempt + 1, state.data.accounts, command.now)];
}

/**
 * Publishes the failed accounts again, and resumes each live account's thread stopped at a failed
 * part (after its last posted part). With only threads to resume, no account awaits an outcome:
 * the attempt completes at once, its parts follow as first comments do.
 */
export function decideRetry(command: RetryPublish, state: ExistingPost): PostEvent[] {
  const failed = state.data.accounts.filter((a) => state.accounts[a.accountId].status === 'failed');
  const resumes = state.data.accounts.filter((a) => threadStopped(state.accounts[a.accountId]));
  const ended = state.status === 'partial' || state.status === 'failed' || state.status === 'published';
  if (!ended || failed.length + resumes.length === 0) {
    throw new DomainError('post_not_retryable', `the post is ${state.status}; only a partial or failed post, or one with a thread stopped at a failed part, can be retried`);
  }
  const requested = publishRequested(state.data, state.attempt + 1, failed, command.now, resumes);
  if (failed.length > 0) return [requested];
  const after = evolve(state, requested) as ExistingPost;
  return [requested, publishCompleted(after, state.attempt + 1, command.now)];
}

/** Every account of the attempt has an outcome: the post's status over all its accounts. */
function publishCompleted(state: ExistingPost, attempt: number, now: Date): PostEvent {
  const all = Object.values(state.accounts);
  return {
    type: 'PublishCompleted',
    data: {
      postId: state.data.postId,
      attempt,
      status: overallStatus(all),
      publishedAt: firstPublishedAt(all),
      errorMessage: failureSummary(all),
      completedAt: now.toISOString(),
    },
  };
}

function progressIn(state: ExistingPost, accountId: string, attempt: number): AccountProgress {
  const progress = state.accounts[accountId];
  if (!progress || progress.attempt !== attempt) {
    throw new DomainError('not_found', `account ${accountId} is not part of publication attempt ${attempt}`);
  }
  return progress;
}

/** Only a pending account starts, recording which handler run started it; what a repeat is told: startDecision. */
export function decideStart(command: StartAccountPublish, state: ExistingPost): PostEvent[] {
  const progress = progressIn(state, command.accountId, command.attempt);
  if (progress.status !== 'pending') return [];
  const data = { postId: state.data.postId, accountId: command.accountId, attempt: command.attempt, deliveryId: command.deliveryId, startedAt: command.now.toISOString() };
  return [{ type: 'AccountPublishStarted', data }];
}

/** The first outcome recorded for an account stands; a repeat (a redelivery) changes nothing. */
export function decideOutcome(command: RecordAccountOutcome, state: ExistingPost): PostEvent[] {
  const progress = progressIn(state, command.accountId, command.attempt);
  if (hasOutcome(progress)) return [];
  const base = { postId: state.data.postId, accountId: command.accountId, platform: progress.account.platform, attempt: command.attempt };
  const outcome: PostEvent =
    command.outcome.status === 'published'
      ? {
          type: 'AccountPublished',
          data: { ...base, platformPostId: command.outcome.platformPostId, url: command.outcome.url, reconciled: command.outcome.reconciled, publishedAt: command.now.toISOString() },
        }
      : { type: 'AccountPublishFailed', data: { ...base, error: command.outcome.error, failedAt: command.now.toISOString() } };
  const after = evolve(state, outcome) as ExistingPost;
  const attemptAccounts = Object.values(after.accounts).filter((a) => a.attempt === command.attempt);
  if (!attemptAccounts.every(hasOutcome)) return [outcome];
  return [outcome, publishCompleted(after, command.attempt, command.now)];
}

/**
 * The start or outcome of one item posted after an account's post: a first comment, or (kind
 * threadPart) a thread part. An item's start is recorded once (the caller that recorded it sends
 * the item); its first outcome stands; a repeat (a redelivery) changes nothing.
 */
export function decideFirstComment(command: RecordFirstComment, state: ExistingPost): PostEvent[] {
  const progress = state.accounts[command.accountId];
  const series = command.kind === 'threadPart' ? 'thread part' : 'first comment';
  if (!progress || progress.status !== 'published') throw new DomainError('not_found', `account ${command.accountId} has no live item for a ${series}`);
  // The account's own first comments: its overrides may give it others than the post's.
  const count = command.kind === 'threadPart' ? threadPartCount(state) : publicationFor(state.data, progress.account).firstComments.length;
  if (command.index < 0 || command.index >= count) throw new DomainError('not_found', `no ${series} ${command.index}`);
  const base = { postId: state.data.postId, accountId: command.accountId, index: command.index };
  const postedAt = command.now.toISOString();
  const recorded = command.kind === 'threadPart' ? progress.thread[command.index]?.status : progress.firstComments[command.index];
  if (command.outcome.status === 'started') {
    if (recorded) return [];
    return [{ type: command.kind === 'threadPart' ? 'ThreadPartStarted' : 'FirstCommentStarted', data: { ...base, startedAt: postedAt } }];
  }
  if (recorded && recorded !== 'started') return [];
  if (command.outcome.status === 'failed') {
    const failed = { ...base, error: command.outcome.error, failedAt: postedAt };
    return [command.kind === 'threadPart' ? { type: 'ThreadPartFailed', data: failed } : { type: 'FirstCommentFailed', data: failed }];
  }
  const id = command.outcome.platformCommentId;
  const url = command.outcome.url === undefined ? {} : { url: command.outcome.url };
  return [
    command.kind === 'threadPart'
      ? { type: 'ThreadPartPosted', data: { ...base, platformPostId: id, ...url, postedAt } }
      : { type: 'FirstCommentPosted', data: { ...base, platformCommentId: id, ...url, postedAt } },
  ];
}

/**
 * How many parts may follow an account's post: the post's thread, or with autoSplit the bound the
 * create rules kept every account's thread within (splitting is the costly step: it is not done
 * again for each part recorded).
 */
function threadPartCount(state: ExistingPost): number {
  return state.data.autoSplit ? THREAD_MAX_PARTS : (state.data.thread ?? []).length;
}

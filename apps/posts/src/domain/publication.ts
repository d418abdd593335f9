import { PublishError, TargetAccount } from '@app/contracts';

/** Where one account of a post stands in its latest publication attempt. */
export interface AccountProgress {
  account: TargetAccount;
  /** The attempt that last targeted this account (0: never). */
  attempt: number;
  status: 'pending' | 'started' | 'published' | 'failed';
  /** The publisher's handler run that recorded the start (null: none did, or it predates delivery ids). */
  startedBy: string | null;
  platformPostId: string | null;
  url: string | null;
  publishedAt: string | null;
  error: PublishError | null;
  /** First comments recorded for this account, by index; a started one may be live: it is never sent again. */
  firstComments: Record<number, 'started' | 'posted' | 'failed'>;
  /** Thread parts recorded for this account, by index; the thread stops at a failed one until a retry resumes it. */
  thread: Record<number, { status: 'started' } | { status: 'posted'; platformPostId: string } | { status: 'failed' }>;
}

export function pendingProgress(account: TargetAccount, attempt = 0): AccountProgress {
  return { account, attempt, status: 'pending', startedBy: null, platformPostId: null, url: null, publishedAt: null, error: null, firstComments: {}, thread: {} };
}

/** A live account whose thread stopped at a failed part: a retry resumes it after its last posted part. */
export function threadStopped(progress: AccountProgress): boolean {
  return progress.status === 'published' && Object.values(progress.thread).some((part) => part.status === 'failed');
}

/**
 * The answer to a start once it is decided: the handler run that recorded the start is told
 * `started` again when it asks again (it lost the answer, so it never called the platform);
 * any other run finds the account in doubt; an account with an outcome is done.
 */
export function startDecision(progress: AccountProgress, deliveryId: string): 'started' | 'in_doubt' | 'done' {
  if (hasOutcome(progress)) return 'done';
  return progress.startedBy === deliveryId ? 'started' : 'in_doubt';
}

export function hasOutcome(progress: AccountProgress): boolean {
  return progress.status === 'published' || progress.status === 'failed';
}

/** Over every account of the post: published (all), partial (some), failed (none). */
export function overallStatus(accounts: AccountProgress[]): 'published' | 'partial' | 'failed' {
  const published = accounts.filter((a) => a.status === 'published').length;
  if (published === accounts.length) return 'published';
  return published > 0 ? 'partial' : 'failed';
}

/** When the post first went live anywhere. */
export function firstPublishedAt(accounts: AccountProgress[]): string | null {
  const times = accounts.map((a) => a.publishedAt).filter((t): t is string => t !== null);
  return times.length ? times.sort()[0] : null;
}

/** A one-line account of what failed, for the post's errorMessage. */
export function failureSummary(accounts: AccountProgress[]): string | null {
  const failed = accounts.filter((a) => a.status === 'failed');
  if (failed.length === 0) return null;
  const details = failed.map((a) => `${a.account.platform}:${a.account.handle} ${a.error?.code ?? 'failed'}`).join('; ');
  return `${failed.length} of ${accounts.length} account${accounts.length === 1 ? '' : 's'} failed: ${details}`;
}

import { PublishError, TargetAccount } from '@app/contracts';

/** Where one account of a post stands in its latest publication attempt. */
export interface AccountProgress {
  account: TargetAccount;
  /** The attempt that last targeted this account (0: never). */
  attempt: number;
  status: 'pending' | 'started' | 'published' | 'failed';
  platformPostId: string | null;
  url: string | null;
  publishedAt: string | null;
  error: PublishError | null;
  /** First comments recorded for this account, by index. */
  firstComments: Record<number, 'posted' | 'failed'>;
}

export function pendingProgress(account: TargetAccount, attempt = 0): AccountProgress {
  return { account, attempt, status: 'pending', platformPostId: null, url: null, publishedAt: null, error: null, firstComments: {} };
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

import { PostApproval, PostCreatedData, PostEvent, PostStatus } from '@app/contracts';
import { AccountProgress, pendingProgress } from './publication';

/** The Post aggregate as its events leave it. */
export type PostState =
  | { exists: false }
  | {
      exists: true;
      status: PostStatus;
      data: PostCreatedData;
      /** Number of events applied: the optimistic-concurrency version. */
      version: number;
      /** The latest publication attempt (0: never published). */
      attempt: number;
      /** Progress per account id, in the post's account order. */
      accounts: Record<string, AccountProgress>;
      publishedAt: string | null;
      errorMessage: string | null;
      deleted: boolean;
      /** Null until the post is held for review (see decide-review.ts). */
      approval: PostApproval | null;
    };

export type ExistingPost = Extract<PostState, { exists: true }>;

export const initialState = (): PostState => ({ exists: false });

/** Folds one event into the post (history is fact: it never refuses). */
export function evolve(state: PostState, event: PostEvent): PostState {
  if (event.type === 'PostCreated') {
    const accounts = Object.fromEntries(event.data.accounts.map((a) => [a.accountId, pendingProgress(a)]));
    const status = event.data.scheduledAt ? 'scheduled' : 'draft';
    return { exists: true, status, data: event.data, version: 1, attempt: 0, accounts, publishedAt: null, errorMessage: null, deleted: false, approval: null };
  }
  if (!state.exists) throw new Error(`${event.type} before PostCreated`);
  const next: ExistingPost = { ...state, version: state.version + 1 };
  const update = (accountId: string, change: Partial<AccountProgress>) => {
    next.accounts = { ...next.accounts, [accountId]: { ...next.accounts[accountId], ...change } };
  };
  switch (event.type) {
    case 'PublishRequested':
      next.status = 'publishing';
      next.attempt = event.data.attempt;
      for (const account of event.data.accounts) update(account.accountId, { ...pendingProgress(account, event.data.attempt), firstComments: {} });
      // A resumed thread keeps its posted parts: the failed one is posted again, replying to the last posted.
      for (const account of event.data.threadResumes ?? []) {
        const posted = Object.entries(next.accounts[account.accountId].thread).filter(([, part]) => part.status === 'posted');
        update(account.accountId, { attempt: event.data.attempt, thread: Object.fromEntries(posted) });
      }
      return next;
    case 'AccountPublishStarted':
      update(event.data.accountId, { status: 'started', startedBy: event.data.deliveryId ?? null });
      return next;
    case 'AccountPublished':
      update(event.data.accountId, { status: 'published', platformPostId: event.data.platformPostId, url: event.data.url, publishedAt: event.data.publishedAt, error: null });
      return next;
    case 'AccountPublishFailed':
      update(event.data.accountId, { status: 'failed', error: event.data.error });
      return next;
    case 'PublishCompleted':
      next.status = event.data.status;
      next.publishedAt = event.data.publishedAt;
      next.errorMessage = event.data.errorMessage;
      return next;
    case 'FirstCommentStarted':
    case 'FirstCommentPosted':
    case 'FirstCommentFailed': {
      const progress = next.accounts[event.data.accountId];
      const status = event.type === 'FirstCommentStarted' ? 'started' : event.type === 'FirstCommentPosted' ? 'posted' : 'failed';
      update(event.data.accountId, { firstComments: { ...progress.firstComments, [event.data.index]: status } });
      return next;
    }
    case 'ThreadPartStarted':
    case 'ThreadPartPosted':
    case 'ThreadPartFailed': {
      const progress = next.accounts[event.data.accountId];
      const part =
        event.type === 'ThreadPartPosted' ? { status: 'posted' as const, platformPostId: event.data.platformPostId } : { status: event.type === 'ThreadPartStarted' ? ('started' as const) : ('failed' as const) };
      update(event.data.accountId, { thread: { ...progress.thread, [event.data.index]: part } });
      return next;
    }
    case 'PostEdited': {
      const { postId: _postId, editedAt: _editedAt, ...changes } = event.data;
      next.data = { ...next.data, ...changes };
      // A draft's or scheduled post's status follows its schedule; a partial or failed post fixed before a retry stays as it ended.
      if (state.status === 'draft' || state.status === 'scheduled') next.status = next.data.scheduledAt ? 'scheduled' : 'draft';
      if (changes.accounts) next.accounts = Object.fromEntries(changes.accounts.map((a) => [a.accountId, pendingProgress(a)]));
      return next;
    }
    case 'PostDeleted':
      next.deleted = true;
      return next;
    case 'ScheduledPostExpired':
      next.status = 'failed';
      next.errorMessage = event.data.error.message;
      // Every account failed with the expiry, so a retry (the owner's explicit choice) targets them all.
      for (const account of next.data.accounts) update(account.accountId, { status: 'failed', error: event.data.error });
      return next;
    case 'PostApprovalRequested':
      next.approval = { state: 'pending', by: event.data.requestedBy, at: event.data.requestedAt, note: null };
      return next;
    case 'PostApproved':
      next.approval = { state: 'approved', by: event.data.approvedBy, at: event.data.approvedAt, note: event.data.note };
      return next;
    case 'PostRejected':
      next.approval = { state: 'rejected', by: event.data.rejectedBy, at: event.data.rejectedAt, note: event.data.note };
      return next;
    default: {
      const unknown: never = event;
      throw new Error(`unknown event ${JSON.stringify(unknown)}`);
    }
  }
}

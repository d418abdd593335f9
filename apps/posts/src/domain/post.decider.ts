import { AltTexts, DomainError, LIMITS, PostCreatedData, PostEvent, PostStatus, PublishError, TargetAccount } from '@app/contracts';
import { checkAltText, checkContent, checkFirstComments, checkMediaUrls, checkSchedule } from './post-content.rules';
import { AccountProgress, failureSummary, firstPublishedAt, hasOutcome, overallStatus, pendingProgress } from './publication';

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
    };

export type ExistingPost = Extract<PostState, { exists: true }>;

export const initialState = (): PostState => ({ exists: false });

export interface CreatePost {
  type: 'CreatePost';
  postId: string;
  workspaceId: string;
  content: string | undefined;
  mediaUrls: string[];
  /** As the request gave it ([] when it gave none): one entry per mediaUrls entry. */
  altText: ReadonlyArray<string | null>;
  firstComments: string[];
  /** Already resolved from the request's references (see resolveAccountRefs). */
  accounts: TargetAccount[];
  scheduledAt: string | undefined;
  publishNow: boolean;
  idempotency: { key: string; requestHash: string } | null;
  now: Date;
}

/** Publish a draft, or a scheduled post ahead of (or at) its time. */
export interface PublishPost {
  type: 'PublishPost';
  now: Date;
}

/** Publish again to the accounts that failed; never touches one that succeeded. */
export interface RetryPublish {
  type: 'RetryPublish';
  now: Date;
}

export interface StartAccountPublish {
  type: 'StartAccountPublish';
  accountId: string;
  attempt: number;
  now: Date;
}

export interface RecordAccountOutcome {
  type: 'RecordAccountOutcome';
  accountId: string;
  attempt: number;
  outcome: { status: 'published'; platformPostId: string; url: string; reconciled: boolean } | { status: 'failed'; error: PublishError };
  now: Date;
}

export interface RecordFirstComment {
  type: 'RecordFirstComment';
  accountId: string;
  index: number;
  outcome: { status: 'posted'; platformCommentId: string } | { status: 'failed'; error: PublishError };
  now: Date;
}

/** Change a draft, or a scheduled post before its time; `accounts` already resolved. */
export interface EditPost {
  type: 'EditPost';
  changes: {
    content?: string;
    mediaUrls?: string[];
    altText?: ReadonlyArray<string | null>;
    firstComments?: string[];
    accounts?: TargetAccount[];
    scheduledAt?: string | null;
  };
  now: Date;
}

export interface DeletePost {
  type: 'DeletePost';
  now: Date;
}

/** The scheduler found the post due: publish it, expire it if more than six hours late, or do nothing. */
export interface FireScheduledPost {
  type: 'FireScheduledPost';
  now: Date;
}

/** The scheduler found the publication running past every bound: close the accounts still without an outcome. */
export interface AbandonPublication {
  type: 'AbandonPublication';
  now: Date;
}

export type PostCommand =
  | AbandonPublication
  | CreatePost
  | PublishPost
  | RetryPublish
  | StartAccountPublish
  | RecordAccountOutcome
  | RecordFirstComment
  | EditPost
  | DeletePost
  | FireScheduledPost;

export function decide(command: PostCommand, state: PostState): PostEvent[] {
  if (command.type === 'CreatePost') return decideCreate(command, state);
  if (!state.exists || state.deleted) throw new DomainError('not_found', 'no such post in this workspace');
  switch (command.type) {
    case 'EditPost':
      return decideEdit(command, state);
    case 'DeletePost':
      checkEditable(state, command.now);
      return [{ type: 'PostDeleted', data: { postId: state.data.postId, deletedAt: command.now.toISOString() } }];
    case 'FireScheduledPost':
      return decideFire(command, state);
    case 'AbandonPublication':
      return decideAbandon(command, state);
    case 'PublishPost':
      return decidePublish(command, state);
    case 'RetryPublish':
      return decideRetry(command, state);
    case 'StartAccountPublish':
      return decideStart(command, state);
    case 'RecordAccountOutcome':
      return decideOutcome(command, state);
    case 'RecordFirstComment':
      return decideFirstComment(command, state);
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

export function evolve(state: PostState, event: PostEvent): PostState {
  if (event.type === 'PostCreated') {
    const accounts = Object.fromEntries(event.data.accounts.map((a) => [a.accountId, pendingProgress(a)]));
    const status = event.data.scheduledAt ? 'scheduled' : 'draft';
    return { exists: true, status, data: event.data, version: 1, attempt: 0, accounts, publishedAt: null, errorMessage: null, deleted: false };
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
      return next;
    case 'AccountPublishStarted':
      update(event.data.accountId, { status: 'started' });
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
    case 'FirstCommentPosted':
    case 'FirstCommentFailed': {
      const progress = next.accounts[event.data.accountId];
      update(event.data.accountId, { firstComments: { ...progress.firstComments, [event.data.index]: event.type === 'FirstCommentPosted' ? 'posted' : 'failed' } });
      return next;
    }
    case 'PostEdited': {
      const { postId: _postId, editedAt: _editedAt, ...changes } = event.data;
      next.data = { ...next.data, ...changes };
      next.status = next.data.scheduledAt ? 'scheduled' : 'draft';
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
    default: {
      const unknown: never = event;
      throw new Error(`unknown event ${JSON.stringify(unknown)}`);
    }
  }
}

/** A draft, or a scheduled post whose time has not come, can change; nothing else can. */
function checkEditable(state: ExistingPost, now: Date): void {
  const beforeItsTime = state.status === 'scheduled' && new Date(state.data.scheduledAt!).getTime() > now.getTime();
  if (state.status !== 'draft' && !beforeItsTime) {
    const why = state.status === 'scheduled' ? 'its scheduled time has passed' : `it is ${state.status}`;
    throw new DomainError('post_not_editable', `the post can no longer be changed: ${why}`);
  }
}

function decideEdit(command: EditPost, state: ExistingPost): PostEvent[] {
  checkEditable(state, command.now);
  const changes = command.changes;
  if (Object.values(changes).every((value) => value === undefined)) throw new DomainError('nothing_to_edit', 'name at least one field to change');
  const content = changes.content ?? state.data.content;
  const mediaUrls = changes.mediaUrls ?? state.data.mediaUrls;
  checkContent(content, mediaUrls);
  checkMediaUrls(mediaUrls);
  const altText = editedAltText(changes, mediaUrls);
  checkFirstComments(changes.firstComments ?? state.data.firstComments);
  const scheduledAt = changes.scheduledAt === undefined ? undefined : changes.scheduledAt === null ? null : checkSchedule(changes.scheduledAt, false, command.now);
  if (changes.accounts && changes.accounts.length > LIMITS.accountsPerPost) {
    throw new DomainError('too_many_accounts', `a post targets at most ${LIMITS.accountsPerPost} accounts; ${changes.accounts.length} were given`);
  }
  const defined = Object.fromEntries(Object.entries({ ...changes, altText, scheduledAt }).filter(([, value]) => value !== undefined));
  return [{ type: 'PostEdited', data: { postId: state.data.postId, ...defined, editedAt: command.now.toISOString() } }];
}

/**
 * The post's alt texts after an edit, or undefined when they stay: given alone, they describe
 * the current media; new media without them has none (an old description must never label
 * another picture).
 */
function editedAltText(changes: EditPost['changes'], mediaUrls: string[]): AltTexts | undefined {
  if (changes.altText !== undefined) return checkAltText(changes.altText, mediaUrls);
  return changes.mediaUrls === undefined ? undefined : [];
}

function decideAbandon(command: AbandonPublication, state: ExistingPost): PostEvent[] {
  if (state.status !== 'publishing') return [];
  const open = Object.values(state.accounts).filter((progress) => progress.attempt === state.attempt && !hasOutcome(progress));
  const events: PostEvent[] = [];
  let current = state;
  for (const progress of open) {
    // A started account may be live: its outcome is unknown, and it is never re-sent by a retry on its own.
    const error =
      progress.status === 'started'
        ? { code: 'outcome_unknown', message: 'the publisher stopped while publishing to this account; check the account before retrying', retryable: false }
        : { code: 'publish_abandoned', message: 'the publication was never attempted for this account; retry it', retryable: true };
    const decided = decideOutcome({ type: 'RecordAccountOutcome', accountId: progress.account.accountId, attempt: state.attempt, outcome: { status: 'failed', error }, now: command.now }, current);
    events.push(...decided);
    current = decided.reduce(evolve, current) as ExistingPost;
  }
  return events;
}

function decideFire(command: FireScheduledPost, state: ExistingPost): PostEvent[] {
  // Already fired, edited to a draft, or moved later: the scheduler's view was stale; nothing to do.
  if (state.status !== 'scheduled' || !state.data.scheduledAt) return [];
  const lateBy = command.now.getTime() - new Date(state.data.scheduledAt).getTime();
  if (lateBy < 0) return [];
  if (lateBy > LIMITS.overdueScheduledPostMs) {
    const error = { code: 'schedule_expired', message: `not published: found ${Math.round(lateBy / 60_000)} minutes after its scheduled time (more than six hours late)`, retryable: false };
    return [{ type: 'ScheduledPostExpired', data: { postId: state.data.postId, scheduledAt: state.data.scheduledAt, error, expiredAt: command.now.toISOString() } }];
  }
  return [publishRequested(state.data, state.attempt + 1, state.data.accounts, command.now)];
}

function decideCreate(command: CreatePost, state: PostState): PostEvent[] {
  if (state.exists) {
    // The id is derived from the Idempotency-Key: an existing post is the first answer to the same key.
    if (command.idempotency && state.data.idempotency?.requestHash === command.idempotency.requestHash) return [];
    throw new DomainError('idempotency_key_reused', 'this Idempotency-Key was already used with a different request');
  }
  const content = command.content ?? '';
  checkContent(content, command.mediaUrls);
  checkMediaUrls(command.mediaUrls);
  const altText = checkAltText(command.altText, command.mediaUrls);
  checkFirstComments(command.firstComments);
  const scheduledAt = checkSchedule(command.scheduledAt, command.publishNow, command.now);
  if (command.accounts.length === 0) throw new DomainError('accounts_required', 'name at least one account in accounts (or platforms)');
  if (command.accounts.length > LIMITS.accountsPerPost) {
    throw new DomainError('too_many_accounts', `a post targets at most ${LIMITS.accountsPerPost} accounts; ${command.accounts.length} were given`);
  }
  const created: PostCreatedData = {
    postId: command.postId,
    workspaceId: command.workspaceId,
    content,
    mediaUrls: command.mediaUrls,
    altText,
    firstComments: command.firstComments,
    accounts: command.accounts,
    scheduledAt,
    createdAt: command.now.toISOString(),
    idempotency: command.idempotency,
  };
  const events: PostEvent[] = [{ type: 'PostCreated', data: created }];
  if (command.publishNow) events.push(publishRequested(created, 1, created.accounts, command.now));
  return events;
}

function publishRequested(data: PostCreatedData, attempt: number, accounts: TargetAccount[], now: Date): PostEvent {
  return {
    type: 'PublishRequested',
    data: {
      postId: data.postId,
      workspaceId: data.workspaceId,
      attempt,
      accounts,
      content: data.content,
      mediaUrls: data.mediaUrls,
      altText: data.altText ?? [],
      firstComments: data.firstComments,
      requestedAt: now.toISOString(),
    },
  };
}

function decidePublish(command: PublishPost, state: ExistingPost): PostEvent[] {
  if (state.status !== 'draft' && state.status !== 'scheduled') {
    throw new DomainError('post_not_publishable', `the post is ${state.status}; only a draft or a scheduled post can be published`);
  }
  return [publishRequested(state.data, state.attempt + 1, state.data.accounts, command.now)];
}

function decideRetry(command: RetryPublish, state: ExistingPost): PostEvent[] {
  if (state.status !== 'partial' && state.status !== 'failed') {
    throw new DomainError('post_not_retryable', `the post is ${state.status}; only a partial or failed post can be retried`);
  }
  const failed = state.data.accounts.filter((a) => state.accounts[a.accountId].status === 'failed');
  return [publishRequested(state.data, state.attempt + 1, failed, command.now)];
}

function progressIn(state: ExistingPost, accountId: string, attempt: number): AccountProgress {
  const progress = state.accounts[accountId];
  if (!progress || progress.attempt !== attempt) {
    throw new DomainError('not_found', `account ${accountId} is not part of publication attempt ${attempt}`);
  }
  return progress;
}

/** Only a pending account starts; a started one is in doubt and an ended one is done (see StartAccountPublishReply). */
function decideStart(command: StartAccountPublish, state: ExistingPost): PostEvent[] {
  const progress = progressIn(state, command.accountId, command.attempt);
  if (progress.status !== 'pending') return [];
  return [{ type: 'AccountPublishStarted', data: { postId: state.data.postId, accountId: command.accountId, attempt: command.attempt, startedAt: command.now.toISOString() } }];
}

/** The first outcome recorded for an account stands; a repeat (a redelivery) changes nothing. */
function decideOutcome(command: RecordAccountOutcome, state: ExistingPost): PostEvent[] {
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
  const all = Object.values(after.accounts);
  return [
    outcome,
    {
      type: 'PublishCompleted',
      data: {
        postId: state.data.postId,
        attempt: command.attempt,
        status: overallStatus(all),
        publishedAt: firstPublishedAt(all),
        errorMessage: failureSummary(all),
        completedAt: command.now.toISOString(),
      },
    },
  ];
}

function decideFirstComment(command: RecordFirstComment, state: ExistingPost): PostEvent[] {
  const progress = state.accounts[command.accountId];
  if (!progress || progress.status !== 'published') throw new DomainError('not_found', `account ${command.accountId} has no live item for first comments`);
  if (command.index < 0 || command.index >= state.data.firstComments.length) throw new DomainError('not_found', `no first comment ${command.index}`);
  if (progress.firstComments[command.index]) return [];
  const base = { postId: state.data.postId, accountId: command.accountId, index: command.index };
  return command.outcome.status === 'posted'
    ? [{ type: 'FirstCommentPosted', data: { ...base, platformCommentId: command.outcome.platformCommentId, postedAt: command.now.toISOString() } }]
    : [{ type: 'FirstCommentFailed', data: { ...base, error: command.outcome.error, failedAt: command.now.toISOString() } }];
}

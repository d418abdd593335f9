import { DomainError, LIMITS, PostCreatedData, PostEvent, publicationFor } from '@app/contracts';
import { CreatePost } from './post.commands';
import { approvalRequested, checkMayPublishNow } from './decide-review';
import { checkAltText, checkFirstComments, checkMediaUrls, checkSchedule } from './post-content.rules';
import { checkOverrides, checkPublications } from './post-overrides.rules';
import { checkOptionedPublications, checkPlatformOptions } from './post-platform-options.rules';
import { checkAccountThreads, checkThread } from './post-thread.rules';
import { PostState } from './post.state';
import { publishRequested } from './publish-requested';

/**
 * A new post (a draft, scheduled, or published at once); the same Idempotency-Key and request again changes nothing.
 * Held for review when the workspace requires approval and the sender is no reviewer (decide-review.ts).
 */
export function decideCreate(command: CreatePost, state: PostState): PostEvent[] {
  if (state.exists) {
    // The id is derived from the Idempotency-Key: an existing post is the first answer to the same key.
    if (command.idempotency && state.data.idempotency?.requestHash === command.idempotency.requestHash) return [];
    throw new DomainError('idempotency_key_reused', 'this Idempotency-Key was already used with a different request');
  }
  if (command.publishNow) checkMayPublishNow(command.review, state);
  const content = command.content ?? '';
  // What each account publishes (the post, or its overrides) has content or media, and an override keeps its platform's limits.
  const { overrides, requestKeys } = checkOverrides(command.overrides ?? {}, command.accounts);
  checkPublications({ content, mediaUrls: command.mediaUrls, altText: [...command.altText], firstComments: command.firstComments, overrides }, command.accounts, requestKeys);
  checkMediaUrls(command.mediaUrls);
  const altText = checkAltText(command.altText, command.mediaUrls);
  checkFirstComments(command.firstComments);
  const thread = checkThread(command.thread);
  const scheduledAt = checkSchedule(command.scheduledAt, command.publishNow, command.now);
  if (command.accounts.length === 0) throw new DomainError('accounts_required', 'name at least one account in accounts (or platforms)');
  if (command.accounts.length > LIMITS.accountsPerPost) {
    throw new DomainError('too_many_accounts', `a post targets at most ${LIMITS.accountsPerPost} accounts; ${command.accounts.length} were given`);
  }
  const platformOptions = checkPlatformOptions(command.platformOptions ?? {}, command.accounts);
  checkOptionedPublications({ content, mediaUrls: command.mediaUrls, altText, firstComments: command.firstComments, overrides }, platformOptions, command.accounts);
  const created: PostCreatedData = {
    postId: command.postId,
    workspaceId: command.workspaceId,
    content,
    mediaUrls: command.mediaUrls,
    altText,
    firstComments: command.firstComments,
    // Only when given: a post without them is written as before they existed.
    ...(Object.keys(overrides).length > 0 ? { overrides } : {}),
    ...(Object.keys(platformOptions).length > 0 ? { platformOptions } : {}),
    ...(thread.length > 0 ? { thread } : {}),
    ...(command.autoSplit ? { autoSplit: true } : {}),
    accounts: command.accounts,
    scheduledAt,
    createdAt: command.now.toISOString(),
    idempotency: command.idempotency,
  };
  checkAccountThreads(created, created.accounts, (account) => publicationFor(created, account));
  const events: PostEvent[] = [{ type: 'PostCreated', data: created }, ...approvalRequested(created.postId, command.review, state, command.now)];
  if (command.publishNow) events.push(publishRequested(created, 1, created.accounts, command.now));
  return events;
}

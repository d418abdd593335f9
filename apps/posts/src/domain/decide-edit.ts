import { AltTexts, DomainError, LIMITS, PostEvent, publicationFor } from '@app/contracts';
import { DeletePost, EditPost } from './post.commands';
import { decideFix, isFixable } from './decide-fix';
import { approvalRequested } from './decide-review';
import { checkAltText, checkFirstComments, checkMediaUrls, checkSchedule } from './post-content.rules';
import { checkOverrides, checkPublications } from './post-overrides.rules';
import { checkOptionedPublications, checkPlatformOptions } from './post-platform-options.rules';
import { checkAccountThreads, checkThread } from './post-thread.rules';
import { ExistingPost } from './post.state';

/** A draft, or a scheduled post whose time has not come, can change; nothing else can. */
function checkEditable(state: ExistingPost, now: Date): void {
  const beforeItsTime = state.status === 'scheduled' && new Date(state.data.scheduledAt!).getTime() > now.getTime();
  if (state.status !== 'draft' && !beforeItsTime) {
    const why = state.status === 'scheduled' ? 'its scheduled time has passed' : `it is ${state.status}`;
    throw new DomainError('post_not_editable', `the post can no longer be changed: ${why}`);
  }
}

export function decideEdit(command: EditPost, state: ExistingPost): PostEvent[] {
  if (isFixable(state)) return decideFix(command, state);
  checkEditable(state, command.now);
  const changes = command.changes;
  if (Object.values(changes).every((value) => value === undefined)) throw new DomainError('nothing_to_edit', 'name at least one field to change');
  const content = changes.content ?? state.data.content;
  const mediaUrls = changes.mediaUrls ?? state.data.mediaUrls;
  const accounts = changes.accounts ?? state.data.accounts;
  // The post as the edit leaves it, checked as a create checks it: its overrides against the accounts it will target.
  const requested = changes.overrides === undefined ? undefined : checkOverrides(changes.overrides, accounts);
  const overrides = requested?.overrides ?? state.data.overrides;
  const altTextAfter = changes.altText ?? (changes.mediaUrls === undefined ? state.data.altText : undefined) ?? [];
  checkPublications({ content, mediaUrls, altText: [...altTextAfter], firstComments: changes.firstComments ?? state.data.firstComments, overrides }, accounts, requested?.requestKeys);
  checkMediaUrls(mediaUrls);
  const altText = editedAltText(changes, mediaUrls);
  checkFirstComments(changes.firstComments ?? state.data.firstComments);
  const scheduledAt = changes.scheduledAt === undefined ? undefined : changes.scheduledAt === null ? null : checkSchedule(changes.scheduledAt, false, command.now);
  if (changes.accounts && changes.accounts.length > LIMITS.accountsPerPost) {
    throw new DomainError('too_many_accounts', `a post targets at most ${LIMITS.accountsPerPost} accounts; ${changes.accounts.length} were given`);
  }
  const thread = changes.thread === undefined ? undefined : checkThread(changes.thread);
  // The post as the edit leaves it (each field given replaces the post's, resolved as above).
  const edited = {
    ...state.data,
    content,
    mediaUrls,
    altText: altText ?? state.data.altText,
    firstComments: changes.firstComments ?? state.data.firstComments,
    accounts,
    overrides,
    thread: thread ?? state.data.thread,
    autoSplit: changes.autoSplit ?? state.data.autoSplit,
  };
  checkAccountThreads(edited, accounts, (account) => publicationFor(edited, account));
  const platformOptions = changes.platformOptions === undefined ? undefined : checkPlatformOptions(changes.platformOptions, accounts);
  checkOptionedPublications(edited, platformOptions ?? state.data.platformOptions ?? {}, accounts);
  const defined = Object.fromEntries(Object.entries({ ...changes, altText, overrides: requested?.overrides, platformOptions, thread, scheduledAt }).filter(([, value]) => value !== undefined));
  // An edit by a key that needs a reviewer sends an approved (or rejected) post back to review.
  return [{ type: 'PostEdited', data: { postId: state.data.postId, ...defined, editedAt: command.now.toISOString() } }, ...approvalRequested(state.data.postId, command.review, state, command.now)];
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

export function decideDelete(command: DeletePost, state: ExistingPost): PostEvent[] {
  checkEditable(state, command.now);
  return [{ type: 'PostDeleted', data: { postId: state.data.postId, deletedAt: command.now.toISOString() } }];
}

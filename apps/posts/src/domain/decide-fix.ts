import { isDeepStrictEqual } from 'node:util';
import { DomainError, PostEvent, publicationFor } from '@app/contracts';
import { EditPost } from './post.commands';
import { checkOverrides, checkPublications } from './post-overrides.rules';
import { checkOptionedPublications } from './post-platform-options.rules';
import { checkAccountThreads } from './post-thread.rules';
import { ExistingPost } from './post.state';

/**
 * A post that ended with failed accounts (partial, or failed) can be fixed before a retry: the
 * overrides may change, as long as no account that published the post would publish anything
 * else (what is live stays what it is). A content_too_long on X is then fixed by an X override
 * and POST /retry, which sends the new version to the failed accounts only.
 */
export function isFixable(state: ExistingPost): boolean {
  return state.status === 'partial' || state.status === 'failed';
}

export function decideFix(command: EditPost, state: ExistingPost): PostEvent[] {
  const changes = command.changes;
  const given = Object.entries(changes).filter(([, value]) => value !== undefined).map(([field]) => field);
  if (given.length === 0) throw new DomainError('nothing_to_edit', 'name at least one field to change');
  const others = given.filter((field) => field !== 'overrides');
  if (others.length > 0) {
    throw new DomainError('post_not_editable', `the post is ${state.status}: only the overrides of its failed accounts can change before a retry (not ${others.join(', ')})`, {
      details: { fields: others },
    });
  }
  const { overrides, requestKeys } = checkOverrides(changes.overrides!, state.data.accounts);
  const edited = { ...state.data, overrides };
  const published = state.data.accounts.filter((account) => state.accounts[account.accountId].status === 'published');
  const changed = published.filter((account) => !isDeepStrictEqual(publicationFor(state.data, account), publicationFor(edited, account)));
  if (changed.length > 0) {
    const labels = changed.map((account) => `${account.platform}:${account.handle}`).join(', ');
    throw new DomainError('account_already_published', `the edit would change what ${labels} already published; only the failed accounts' overrides can change`, {
      details: { accountIds: changed.map((account) => account.accountId) },
    });
  }
  // The failed accounts get what the edit leaves them, checked as an edit checks it (limits, threads, options).
  const failed = state.data.accounts.filter((account) => !published.includes(account));
  checkPublications(edited, failed, requestKeys);
  checkAccountThreads(edited, failed, (account) => publicationFor(edited, account));
  checkOptionedPublications(edited, state.data.platformOptions ?? {}, failed);
  return [{ type: 'PostEdited', data: { postId: state.data.postId, overrides, editedAt: command.now.toISOString() } }];
}

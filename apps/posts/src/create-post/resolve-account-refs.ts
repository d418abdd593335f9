import { AccountCandidate, CreatePostBody, DomainError, isPlatform, TargetAccount } from '@app/contracts';
import { Account, normalizeHandle } from '@app/accounts';

function candidate(account: Account): AccountCandidate {
  return { accountId: account.id, platform: account.platform, account: account.handle, connected: account.status === 'connected' };
}

function target(account: Account): TargetAccount {
  return { accountId: account.id, platform: account.platform, handle: account.handle };
}

/**
 * Turns a create request's account references into the accounts it targets,
 * against the workspace's accounts (the only read-side lookup a decision uses).
 *
 * - accounts (and its deprecated synonym accountIds, merged): `platform:@handle`,
 *   `@handle` (only when the handle is on one platform), or an account id;
 * - platforms: a platform id, only while it has exactly one connected account.
 * Duplicates (the same account reached twice) are ignored.
 *
 * An account that needs re-authorisation (its platform refused its credential) may be
 * named by a draft or a scheduled post — the user can sign in again before it goes out,
 * and if not, that account fails with reauth_required — but not by a publishNow, which
 * would fail on it at once: account_needs_reauth, nothing created.
 */
export function resolveAccountRefs(
  body: Pick<CreatePostBody, 'accounts' | 'accountIds' | 'platforms'>,
  workspaceAccounts: Account[],
  mode: { publishNow: boolean } = { publishNow: false },
): TargetAccount[] {
  const refs = [...(body.accounts ?? []), ...(body.accountIds ?? [])];
  const platforms = body.platforms ?? [];
  if (refs.length > 0 && platforms.length > 0) {
    throw new DomainError('accounts_and_platforms', 'send accounts or platforms, not both');
  }
  if (refs.length === 0 && platforms.length === 0) {
    throw new DomainError('accounts_required', 'name at least one account in accounts (or platforms)');
  }
  const resolved = refs.length > 0 ? refs.map((ref) => resolveReference(ref, workspaceAccounts)) : platforms.map((p) => resolvePlatform(p, workspaceAccounts));
  const unique = new Map<string, TargetAccount>();
  for (const account of resolved) if (!unique.has(account.accountId)) unique.set(account.accountId, account);
  if (mode.publishNow) {
    const waiting = [...unique.values()].map((t) => workspaceAccounts.find((a) => a.id === t.accountId)!).find((a) => a.status === 'needs_reauth');
    if (waiting) {
      throw new DomainError('account_needs_reauth', `account ${waiting.platform}:${waiting.handle} needs to be connected again (${waiting.statusReason ?? 'its platform refused its credential'})`, {
        details: { accountId: waiting.id, reason: waiting.statusReason },
      });
    }
  }
  return [...unique.values()];
}

function resolveReference(ref: string, accounts: Account[]): TargetAccount {
  const trimmed = ref.trim();
  const qualified = /^([a-z]+):(.+)$/i.exec(trimmed);
  let matches: Account[];
  if (qualified && isPlatform(qualified[1].toLowerCase())) {
    const platform = qualified[1].toLowerCase();
    const handle = normalizeHandle(qualified[2]).toLowerCase();
    matches = accounts.filter((a) => a.platform === platform && a.handle.toLowerCase() === handle);
  } else if (trimmed.startsWith('@')) {
    const handle = trimmed.toLowerCase();
    matches = accounts.filter((a) => a.handle.toLowerCase() === handle);
  } else {
    matches = accounts.filter((a) => a.id === trimmed);
  }
  if (matches.length === 0) {
    throw new DomainError('unknown_account', `account reference ${JSON.stringify(ref)} names no account this key can reach`, { details: { reference: ref } });
  }
  if (matches.length > 1) {
    throw new DomainError('ambiguous_account', `account reference ${JSON.stringify(ref)} matches ${matches.length} accounts; use platform:@handle or an account id`, {
      candidates: matches.map(candidate),
      details: { reference: ref },
    });
  }
  const [account] = matches;
  if (account.status === 'disconnected') {
    throw new DomainError('account_disconnected', `account ${account.platform}:${account.handle} is disconnected`, { details: { reference: ref, accountId: account.id } });
  }
  return target(account);
}

function resolvePlatform(platform: string, accounts: Account[]): TargetAccount {
  const id = platform.trim().toLowerCase();
  if (!isPlatform(id)) throw new DomainError('unknown_platform', `${JSON.stringify(platform)} is not a platform identifier`, { details: { platform } });
  const connected = accounts.filter((a) => a.platform === id && a.status !== 'disconnected');
  if (connected.length === 0) throw new DomainError('platform_not_connected', `no connected account on ${id}`, { details: { platform: id } });
  if (connected.length > 1) {
    throw new DomainError('ambiguous_platform', `${id} has ${connected.length} connected accounts; send accounts instead of platforms`, {
      candidates: connected.map(candidate),
      details: { platform: id },
    });
  }
  return target(connected[0]);
}

import { AccountCandidate, CreatePostBody, DomainError, isPlatform, TargetAccount } from '@app/contracts';
import { Account, normalizeHandle } from '@app/workspaces';

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
 */
export function resolveAccountRefs(body: Pick<CreatePostBody, 'accounts' | 'accountIds' | 'platforms'>, workspaceAccounts: Account[]): TargetAccount[] {
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
  if (account.status !== 'connected') {
    throw new DomainError('account_disconnected', `account ${account.platform}:${account.handle} is disconnected`, { details: { reference: ref, accountId: account.id } });
  }
  return target(account);
}

function resolvePlatform(platform: string, accounts: Account[]): TargetAccount {
  const id = platform.trim().toLowerCase();
  if (!isPlatform(id)) throw new DomainError('unknown_platform', `${JSON.stringify(platform)} is not a platform identifier`, { details: { platform } });
  const connected = accounts.filter((a) => a.platform === id && a.status === 'connected');
  if (connected.length === 0) throw new DomainError('platform_not_connected', `no connected account on ${id}`, { details: { platform: id } });
  if (connected.length > 1) {
    throw new DomainError('ambiguous_platform', `${id} has ${connected.length} connected accounts; send accounts instead of platforms`, {
      candidates: connected.map(candidate),
      details: { platform: id },
    });
  }
  return target(connected[0]);
}

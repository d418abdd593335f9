import { DomainError } from '@app/contracts';
import { Account } from '@app/accounts';
import { resolveAccountRefs } from './resolve-account-refs';

function account(id: string, platform: Account['platform'], handle: string, status: Account['status'] = 'connected'): Account {
  const since = '2030-01-01T00:00:00.000Z';
  return {
    id, workspaceId: 'w-1', platform, handle, displayName: handle, status, statusReason: status === 'needs_reauth' ? 'invalid_grant' : null, statusSince: since,
    platformAccountId: `pid-${id}`, instanceUrl: null, tokenExpiresAt: null, scopes: [], createdAt: since,
  };
}

const accounts = [
  account('id-x-acme', 'x', '@acme'),
  account('id-fb-acme', 'facebook', '@acme'),
  account('id-ig-shop', 'instagram', '@shop'),
  account('id-x-news', 'x', '@news'),
  account('id-li-old', 'linkedin', '@old', 'disconnected'),
  account('id-th-stale', 'threads', '@stale', 'needs_reauth'),
];

function refusal(body: Parameters<typeof resolveAccountRefs>[0]): DomainError {
  try {
    resolveAccountRefs(body, accounts);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('resolveAccountRefs', () => {
  it('resolves platform:@handle, a bare @handle on one platform, and an account id', () => {
    expect(resolveAccountRefs({ accounts: ['x:@acme', '@shop', 'id-x-news'] }, accounts).map((a) => a.accountId)).toEqual([
      'id-x-acme',
      'id-ig-shop',
      'id-x-news',
    ]);
  });

  it('matches handles case-insensitively and accepts platform:handle without @', () => {
    expect(resolveAccountRefs({ accounts: ['X:ACME'] }, accounts)).toEqual([{ accountId: 'id-x-acme', platform: 'x', handle: '@acme' }]);
  });

  it('treats accountIds (deprecated) as a synonym of accounts and merges them', () => {
    expect(resolveAccountRefs({ accountIds: ['id-ig-shop'] }, accounts).map((a) => a.accountId)).toEqual(['id-ig-shop']);
    expect(resolveAccountRefs({ accounts: ['@shop'], accountIds: ['id-x-news'] }, accounts)).toHaveLength(2);
  });

  it('ignores duplicates, including two references to the same account', () => {
    expect(resolveAccountRefs({ accounts: ['x:@acme', 'x:@acme', 'id-x-acme'] }, accounts)).toEqual([
      { accountId: 'id-x-acme', platform: 'x', handle: '@acme' },
    ]);
  });

  it('resolves a platform with exactly one connected account', () => {
    expect(resolveAccountRefs({ platforms: ['instagram', 'facebook'] }, accounts).map((a) => a.accountId)).toEqual(['id-ig-shop', 'id-fb-acme']);
  });

  it('refuses a platforms entry matching several connected accounts with ambiguous_platform and the candidates', () => {
    const error = refusal({ platforms: ['x'] });
    expect(error.code).toBe('ambiguous_platform');
    expect(error.extra.candidates?.map((c) => c.accountId).sort()).toEqual(['id-x-acme', 'id-x-news']);
  });

  it('refuses a bare handle on several platforms with the candidates listed', () => {
    const error = refusal({ accounts: ['@acme'] });
    expect(error.code).toBe('ambiguous_account');
    expect(error.extra.candidates).toEqual(
      expect.arrayContaining([
        { accountId: 'id-x-acme', platform: 'x', account: '@acme', connected: true },
        { accountId: 'id-fb-acme', platform: 'facebook', account: '@acme', connected: true },
      ]),
    );
  });

  it.each([
    [{}, 'accounts_required'],
    [{ accounts: [] }, 'accounts_required'],
    [{ accounts: ['@acme'], platforms: ['x'] }, 'accounts_and_platforms'],
    [{ accountIds: ['id-x-acme'], platforms: ['x'] }, 'accounts_and_platforms'],
    [{ accounts: ['x:@nobody'] }, 'unknown_account'],
    [{ accounts: ['@nobody'] }, 'unknown_account'],
    [{ accounts: ['not-an-id'] }, 'unknown_account'],
    [{ accounts: ['myspace:@acme'] }, 'unknown_account'],
    [{ accounts: ['linkedin:@old'] }, 'account_disconnected'],
    [{ accounts: ['id-li-old'] }, 'account_disconnected'],
    [{ platforms: ['myspace'] }, 'unknown_platform'],
    [{ platforms: ['tiktok'] }, 'platform_not_connected'],
    [{ platforms: ['linkedin'] }, 'platform_not_connected'],
  ])('refuses %j with %s', (body, code) => {
    expect(refusal(body).code).toBe(code);
  });

  it('never reaches another workspace: an id that is not in the list is unknown', () => {
    expect(() => resolveAccountRefs({ accounts: ['id-of-another-workspace'] }, accounts)).toThrow(DomainError);
  });

  it('lets a draft or a scheduled post name an account that needs re-authorisation, and refuses it for publishNow', () => {
    expect(resolveAccountRefs({ accounts: ['threads:@stale'] }, accounts).map((a) => a.accountId)).toEqual(['id-th-stale']);
    expect(resolveAccountRefs({ platforms: ['threads'] }, accounts).map((a) => a.accountId)).toEqual(['id-th-stale']);
    let refused: unknown;
    try {
      resolveAccountRefs({ accounts: ['x:@acme', 'threads:@stale'] }, accounts, { publishNow: true });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).code).toBe('account_needs_reauth');
    expect((refused as DomainError).extra.details).toEqual({ accountId: 'id-th-stale', reason: 'invalid_grant' });
  });
});

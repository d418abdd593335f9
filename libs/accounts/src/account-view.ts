import type { AccountView } from '@app/contracts';
import type { Account } from './account';

/** An account as the API shows it (never with credentials). */
export function toAccountView(account: Account): AccountView {
  return {
    id: account.id,
    platform: account.platform,
    account: account.handle,
    displayName: account.displayName,
    status: account.status,
    statusReason: account.statusReason,
    statusSince: account.statusSince,
    platformAccountId: account.platformAccountId,
    instanceUrl: account.instanceUrl,
    tokenExpiresAt: account.tokenExpiresAt,
    scopes: account.scopes,
    createdAt: account.createdAt,
  };
}

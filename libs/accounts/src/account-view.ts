import type { AccountView } from '@app/contracts';
import type { Account } from './account';

/** An account as the API shows it (never with credentials). */
export function toAccountView(account: Account): AccountView {
  const { workspaceId: _workspace, handle, ...shown } = account;
  return { ...shown, account: handle };
}

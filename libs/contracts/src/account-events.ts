import type { Platform } from './platforms';

/**
 * Lifecycle events of a connected account, on stream `account-<id>` and NATS subjects
 * `social.v1.accounts.<Type>`. They never carry credentials.
 */
export function accountStreamId(accountId: string): string {
  return `account-${accountId}`;
}

interface AccountEventBase {
  accountId: string;
  workspaceId: string;
  platform: Platform;
  /** The handle with its @. */
  handle: string;
}

/** Connected, or connected again (a sign-in for an account that needed re-authorisation or was disconnected). */
export interface AccountConnectedData extends AccountEventBase {
  displayName: string;
  platformAccountId: string;
  instanceUrl: string | null;
  scopes: string[];
  tokenExpiresAt: string | null;
  /** True when the account existed before (its id is kept). */
  reconnected: boolean;
}

/** The platform refused the account's credential for good: publishing and replying fail with reauth_required until it connects again. */
export interface AccountReauthRequiredData extends AccountEventBase {
  /** A stable code: the platform's (invalid_grant, access_token_invalid...) or ours (identity_unknown). */
  reason: string;
  message: string;
}

export interface AccountDisconnectedData extends AccountEventBase {
  /** Whether the platform confirmed the revocation of our token (false where it offers none, or did not answer). */
  revoked: boolean;
}

export type AccountEvent =
  | { type: 'AccountConnected'; data: AccountConnectedData }
  | { type: 'AccountReauthRequired'; data: AccountReauthRequiredData }
  | { type: 'AccountDisconnected'; data: AccountDisconnectedData };

export type AccountEventType = AccountEvent['type'];

/** The data of one account event type. */
export type AccountEventData<T extends AccountEventType> = Extract<AccountEvent, { type: T }>['data'];

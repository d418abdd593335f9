import type { Platform } from './platforms';

/**
 * - connected: the service can act as the account;
 * - needs_reauth: the platform refused its credential for good (revoked, expired refresh
 *   token, a token without an identity): the user signs in again; nothing is sent meanwhile;
 * - disconnected: the workspace disconnected it.
 */
export type AccountStatus = 'connected' | 'needs_reauth' | 'disconnected';
export const ACCOUNT_STATUSES: readonly AccountStatus[] = ['connected', 'needs_reauth', 'disconnected'];

/** An account as GET /api/v1/accounts lists it (never with credentials). */
export interface AccountView {
  id: string;
  platform: Platform;
  /** The handle, with a leading @. */
  account: string;
  displayName: string;
  status: AccountStatus;
  /** Why it needs re-authorisation or was disconnected (a stable code), with the time it changed; null when connected. */
  statusReason: string | null;
  statusSince: string;
  /** The platform's own id for the account (null only for rows from before identities were kept). */
  platformAccountId: string | null;
  /** Mastodon instance / Bluesky PDS. */
  instanceUrl: string | null;
  /** When the access token stops working (null: it does not expire, or the platform did not say). */
  tokenExpiresAt: string | null;
  scopes: string[];
  createdAt: string;
}

/** accounts.connect-start: POST /api/v1/accounts/connect. */
export interface StartConnectCommand {
  workspaceId: string;
  platform: Platform;
  /** Where the user is sent back to once the sign-in is done (with account ids, or an error code). */
  redirectUri: string;
  /** Mastodon: the instance to sign in on. */
  instanceUrl: string | null;
}

export interface StartConnectReply {
  authorizationUrl: string;
  state: string;
  /**
   * The secret that completes this sign-in (POST /api/v1/accounts/connect/complete): kept by the
   * client's backend (with the user's session that started it), never put in a url. Only its
   * SHA-256 digest is stored.
   */
  verifier: string;
  expiresAt: string;
}

/** accounts.connect-callback: the platform sent the user back to GET /api/v1/accounts/connect/callback. */
export interface ConnectCallbackCommand {
  state: string;
  code: string | null;
  /** The platform's error when the user refused (error, error_description). */
  error: string | null;
  errorDescription: string | null;
}

/** Where the gateway redirects the user: the client's redirectUri with connection_id, or with error. */
export interface ConnectCallbackReply {
  redirectTo: string;
}

/** accounts.connect-complete: POST /api/v1/accounts/connect/complete, the client's backend attaching what the sign-in gave. */
export interface CompleteConnectCommand {
  workspaceId: string;
  /** The connection_id the callback put on the redirect. */
  connectionId: string;
  /** The verifier POST /api/v1/accounts/connect answered. */
  verifier: string;
}

/** accounts.connect-credentials: POST /api/v1/accounts with credentials obtained elsewhere (or a Bluesky app password). */
export interface ConnectWithCredentialsCommand {
  workspaceId: string;
  platform: Platform;
  accessToken?: string;
  refreshToken?: string;
  expiresAt?: string;
  instanceUrl?: string;
  /** Bluesky: handle (or DID / email) and app password; pds defaults to https://bsky.social. */
  handle?: string;
  appPassword?: string;
  pds?: string;
}

export interface ConnectedAccountsReply {
  accounts: AccountView[];
}

/** accounts.disconnect: DELETE /api/v1/accounts/:id. */
export interface DisconnectAccountCommand {
  workspaceId: string;
  accountId: string;
}

/** accounts.require-reauth: a service found the account's credential refused for good. */
export interface RequireReauthCommand {
  accountId: string;
  reason: string;
  message: string;
}

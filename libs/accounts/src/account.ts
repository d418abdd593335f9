import type { Platform } from '@app/contracts';

/**
 * - connected: the service can act as the account;
 * - needs_reauth: the platform refused its credential for good (revoked, expired refresh
 *   token, a token without an identity): the user signs in again; nothing is sent meanwhile;
 * - disconnected: the workspace disconnected it.
 */
export type AccountStatus = 'connected' | 'needs_reauth' | 'disconnected';
export const ACCOUNT_STATUSES: readonly AccountStatus[] = ['connected', 'needs_reauth', 'disconnected'];

/** A connected social account as the rest of the system sees it (never with credentials). */
export interface Account {
  id: string;
  workspaceId: string;
  platform: Platform;
  handle: string;
  displayName: string;
  status: AccountStatus;
  /** Why the account needs re-authorisation or was disconnected (a stable code), null when connected. */
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

/** Handles are written with a leading @ and compared case-insensitively. */
export function normalizeHandle(handle: string): string {
  const trimmed = handle.trim();
  return trimmed.startsWith('@') ? trimmed : `@${trimmed}`;
}

/**
 * How long before its end a credential is renewed. Long-lived tokens (Threads, Instagram:
 * 60 days, re-extended with themselves while still valid) a week ahead, so a few days of
 * outage never lets one lapse; short-lived ones (hours) `shortAheadMs` ahead.
 */
export const LONG_LIVED_RENEW_AHEAD_MS = 7 * 24 * 3600_000;

export function renewAheadMs(kind: string | null, shortAheadMs: number): number {
  return kind === 'long_lived' ? LONG_LIVED_RENEW_AHEAD_MS : shortAheadMs;
}

import type { AccountView } from '@app/contracts';

export { ACCOUNT_STATUSES } from '@app/contracts';
export type { AccountStatus } from '@app/contracts';

/** A connected social account as the rest of the system sees it (never with credentials): its API view, with its workspace and its handle by name. */
export interface Account extends Omit<AccountView, 'account'> {
  workspaceId: string;
  handle: string;
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

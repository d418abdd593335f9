import type { Platform } from '@app/contracts';

export type AccountStatus = 'connected' | 'disconnected';

/** A connected social account as the rest of the system sees it (never with credentials). */
export interface Account {
  id: string;
  workspaceId: string;
  platform: Platform;
  handle: string;
  displayName: string;
  status: AccountStatus;
  createdAt: string;
}

/** Handles are written with a leading @ and compared case-insensitively. */
export function normalizeHandle(handle: string): string {
  const trimmed = handle.trim();
  return trimmed.startsWith('@') ? trimmed : `@${trimmed}`;
}

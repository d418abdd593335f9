import type { Platform } from '@app/contracts';
import type { PublishOutcome } from '@app/platforms';
import type { XPool } from './x-pool';

export const X_QUOTA_EXHAUSTED = {
  code: 'x_quota_exhausted',
  message: "the workspace's X pool for this month is used up; X posts and replies resume next month",
  retryable: true,
} as const;

/**
 * Runs one irreversible X call (a post, a first comment, a reply) against the
 * workspace's X pool: draws a unit first (none left: a failed outcome, the
 * platform is not called), gives it back if the platform refused. An unknown
 * outcome keeps the unit: the call may have landed. Other platforms pass through.
 */
export async function spendXPool(pool: XPool, workspaceId: string, platform: Platform, call: () => Promise<PublishOutcome>): Promise<PublishOutcome> {
  if (platform !== 'x') return call();
  const ticket = await pool.draw(workspaceId);
  if (!ticket) return { status: 'failed', error: { ...X_QUOTA_EXHAUSTED } };
  const outcome = await call();
  if (outcome.status === 'failed') await pool.refund(ticket);
  return outcome;
}

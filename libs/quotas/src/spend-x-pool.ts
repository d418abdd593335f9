import type { Platform } from '@app/contracts';
import type { PublishOutcome } from '@app/platforms';
import type { XPool, XPoolTicket } from './x-pool';

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
export function spendXPool(pool: XPool, workspaceId: string, platform: Platform, call: () => Promise<PublishOutcome>): Promise<PublishOutcome> {
  return new XPoolDrawAhead(pool, workspaceId, platform).spend(call);
}

/**
 * The X pool drawn ahead of a call that may not be made: the publisher begins the draw while the posts
 * service decides whether the account starts, so the draw's round trip is not on the way to the
 * platform call (a publication waits for its slowest account). The first spend uses that draw, as
 * spendXPool does; a call made again (after a token renewal) draws anew; a draw never spent (the
 * account was done already, in doubt, or without usable credentials) is given back by release().
 * Other platforms draw nothing.
 */
export class XPoolDrawAhead {
  private ahead: Promise<XPoolTicket | null> | null;

  constructor(
    private readonly pool: XPool,
    private readonly workspaceId: string,
    private readonly platform: Platform,
  ) {
    this.ahead = platform === 'x' ? pool.draw(workspaceId) : null;
    // A failed draw is rethrown by spend or dropped by release: never unhandled while it waits.
    this.ahead?.catch(() => undefined);
  }

  /** The call against a unit of the pool (none left: a failed outcome, no call); a call the platform refused gives it back. */
  async spend(call: () => Promise<PublishOutcome>): Promise<PublishOutcome> {
    if (this.platform !== 'x') return call();
    const drawn = this.ahead ?? this.pool.draw(this.workspaceId);
    this.ahead = null;
    const ticket = await drawn;
    if (!ticket) return { status: 'failed', error: { ...X_QUOTA_EXHAUSTED } };
    const outcome = await call();
    if (outcome.status === 'failed') await this.pool.refund(ticket);
    return outcome;
  }

  /** Gives back a draw no call spent; nothing once spent. */
  async release(): Promise<void> {
    const ahead = this.ahead;
    this.ahead = null;
    const ticket = await ahead?.catch(() => null);
    if (ticket) await this.pool.refund(ticket);
  }
}

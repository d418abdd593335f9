import { Pool } from 'pg';

/** One unit taken from a workspace's X pool, for the month it was taken in (a refund goes back to that month). */
export interface XPoolTicket {
  workspaceId: string;
  /** First day of the UTC month, YYYY-MM-01. */
  period: string;
}

/** The UTC calendar month of a moment, as its first day. */
export function xPoolPeriod(at: Date): string {
  return `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, '0')}-01`;
}

/**
 * The per-workspace monthly quota of X posts and replies (X's API plans cap
 * writes per month). Every X post and reply draws one unit before the platform
 * call; a call the platform rejects gives it back. One home for the publisher
 * and the replies.
 */
export class XPool {
  constructor(
    private readonly pool: Pool,
    /** Units per workspace and month. */
    readonly monthlySize: number,
  ) {}

  /**
   * Takes one unit if the month's pool has one left: a single statement, so
   * concurrent draws serialise on the row and never take more than the size.
   * Returns null when the pool is exhausted.
   */
  async draw(workspaceId: string, now: Date = new Date()): Promise<XPoolTicket | null> {
    if (this.monthlySize <= 0) return null;
    const period = xPoolPeriod(now);
    const { rowCount } = await this.pool.query(
      `INSERT INTO x_pool_usage (workspace_id, period, used) VALUES ($1, $2, 1)
       ON CONFLICT (workspace_id, period)
       DO UPDATE SET used = x_pool_usage.used + 1, updated_at = now()
       WHERE x_pool_usage.used < $3`,
      [workspaceId, period, this.monthlySize],
    );
    return rowCount === 1 ? { workspaceId, period } : null;
  }

  /** Gives a drawn unit back (the platform rejected the post or reply). */
  async refund(ticket: XPoolTicket): Promise<void> {
    await this.pool.query(
      'UPDATE x_pool_usage SET used = used - 1, updated_at = now() WHERE workspace_id = $1 AND period = $2 AND used > 0',
      [ticket.workspaceId, ticket.period],
    );
  }

  /** Units used in the month of `at`. */
  async used(workspaceId: string, at: Date = new Date()): Promise<number> {
    const { rows } = await this.pool.query<{ used: number }>('SELECT used FROM x_pool_usage WHERE workspace_id = $1 AND period = $2', [workspaceId, xPoolPeriod(at)]);
    return rows[0]?.used ?? 0;
  }
}

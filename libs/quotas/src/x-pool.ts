import { Pool } from 'pg';
import { prepared } from '@app/database';

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
  /** The draws asked for in this moment, by workspace and month: taken together, one statement each. */
  private pending = new Map<string, { ticket: XPoolTicket; waiting: Array<{ resolve: (ticket: XPoolTicket | null) => void; reject: (error: unknown) => void }> }>();

  constructor(
    private readonly pool: Pool,
    /** Units per workspace and month. */
    readonly monthlySize: number,
  ) {}

  /**
   * Takes one unit if the month's pool has one left; null when it is exhausted. The draws of one
   * moment for the same workspace and month (the X posts of the top of the hour) are taken in one
   * statement that grants as many as are left, first asked first served; each statement locks the
   * month's row, so concurrent draws (other replicas) serialise on it and never take more than the size.
   */
  draw(workspaceId: string, now: Date = new Date()): Promise<XPoolTicket | null> {
    if (this.monthlySize <= 0) return Promise.resolve(null);
    const ticket = { workspaceId, period: xPoolPeriod(now) };
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) setImmediate(() => void this.drawPending());
      const key = `${ticket.workspaceId} ${ticket.period}`;
      const draws = this.pending.get(key) ?? { ticket, waiting: [] };
      draws.waiting.push({ resolve, reject });
      this.pending.set(key, draws);
    });
  }

  private async drawPending(): Promise<void> {
    const batch = [...this.pending.values()];
    this.pending = new Map();
    await Promise.all(
      batch.map(async ({ ticket, waiting }) => {
        try {
          const granted = await this.take(ticket, waiting.length);
          waiting.forEach(({ resolve }, i) => resolve(i < granted ? ticket : null));
        } catch (error) {
          for (const { reject } of waiting) reject(error);
        }
      }),
    );
  }

  /**
   * Takes up to `wanted` units of the month's pool, in one statement once its row exists: the row
   * is locked and read (`before`), then moved up by what is left, never past the size (nor down,
   * should the size have been lowered), and the difference is what was granted.
   */
  private async take(ticket: XPoolTicket, wanted: number): Promise<number> {
    for (let attempt = 0; ; attempt++) {
      const { rows } = await this.pool.query<{ granted: number }>(
        prepared(
          `WITH before AS (SELECT used FROM x_pool_usage WHERE workspace_id = $1 AND period = $2 FOR UPDATE)
           UPDATE x_pool_usage SET used = GREATEST(x_pool_usage.used, LEAST(x_pool_usage.used + $3, $4)), updated_at = now()
             FROM before
            WHERE workspace_id = $1 AND period = $2
           RETURNING x_pool_usage.used - before.used AS granted`,
          [ticket.workspaceId, ticket.period, wanted, this.monthlySize],
        ),
      );
      if (rows[0]) return rows[0].granted;
      // The month's first draw: its row, then the grant.
      if (attempt > 0) throw new Error(`x_pool_usage has no row for ${ticket.workspaceId} ${ticket.period}`);
      await this.pool.query('INSERT INTO x_pool_usage (workspace_id, period, used) VALUES ($1, $2, 0) ON CONFLICT (workspace_id, period) DO NOTHING', [ticket.workspaceId, ticket.period]);
    }
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

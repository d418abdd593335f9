import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { CollectionSchedule } from '@app/config';
import { ItemMetrics, Platform } from '@app/contracts';
import { PG_POOL } from '@app/database';
import { ItemMetricsState } from '../domain/item-metrics.decider';
import { TrackedItem } from '../domain/tracked-item';

/** A tracked item due a collection, with what the collector knows of its observations. */
export interface DueItem {
  item: TrackedItem;
  state: ItemMetricsState;
}

export interface DueAccount {
  accountId: string;
  workspaceId: string;
  platform: Platform;
  lastObservedAt: Date | null;
}

interface ItemRow {
  post_id: string;
  account_id: string;
  workspace_id: string;
  platform: Platform;
  platform_post_id: string;
  published_at: Date;
  last_observed_at: Date | null;
  last_metrics: ItemMetrics | null;
  failure_code: string | null;
}

/**
 * The analytics service's work list (metrics_collection_items and _accounts):
 * which items and accounts are tracked and when each is due. Items are found in
 * post_views (the successful entries of each post's results, as the comment
 * poller finds them); accounts in the accounts table. A read model says only
 * *which* items to collect; what is recorded is decided on the item's own state.
 */
@Injectable()
export class CollectionStore {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /**
   * Starts tracking the items of posts published since `since` on these platforms, and
   * stops tracking the items of deleted posts. Returns how many items it added.
   */
  async discoverItems(platforms: Platform[], since: Date, schedule: CollectionSchedule): Promise<number> {
    const { rowCount } = await this.pool.query(
      `INSERT INTO metrics_collection_items (post_id, account_id, workspace_id, platform, platform_post_id, published_at, next_due_at)
       SELECT p.id, (r->>'accountId')::uuid, p.workspace_id, r->>'platform', r->>'postId', p.published_at, p.published_at + make_interval(secs => $3::double precision / 1000)
       FROM post_views p CROSS JOIN LATERAL jsonb_array_elements(p.results) r
       WHERE p.published_at >= $2 AND r @> '{"success": true}' AND r->>'platform' = ANY($1::text[]) AND r->>'postId' IS NOT NULL
       ON CONFLICT (post_id, account_id) DO NOTHING`,
      [platforms, since, schedule.firstAfterMs],
    );
    await this.pool.query('DELETE FROM metrics_collection_items i WHERE next_due_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM post_views p WHERE p.id = i.post_id)');
    return rowCount ?? 0;
  }

  /** Starts tracking the follower count of connected accounts on these platforms, first due at once; stops for disconnected ones. */
  async discoverAccounts(platforms: Platform[], now: Date): Promise<void> {
    await this.pool.query(
      `INSERT INTO metrics_collection_accounts (account_id, workspace_id, platform, next_due_at)
       SELECT id, workspace_id, platform, $2 FROM accounts WHERE status = 'connected' AND platform = ANY($1::text[])
       ON CONFLICT (account_id) DO NOTHING`,
      [platforms, now],
    );
    await this.pool.query(
      `UPDATE metrics_collection_accounts m SET next_due_at = NULL FROM accounts a WHERE a.id = m.account_id AND a.status <> 'connected' AND m.next_due_at IS NOT NULL`,
    );
  }

  /** Items due at `now`, the longest overdue first, at most `limit`. */
  async dueItems(now: Date, limit: number): Promise<DueItem[]> {
    const { rows } = await this.pool.query<ItemRow>(
      `SELECT post_id, account_id, workspace_id, platform, platform_post_id, published_at, last_observed_at, last_metrics, failure_code
       FROM metrics_collection_items WHERE next_due_at IS NOT NULL AND next_due_at <= $1 ORDER BY next_due_at LIMIT $2`,
      [now, limit],
    );
    return rows.map((row) => ({
      item: { workspaceId: row.workspace_id, postId: row.post_id, accountId: row.account_id, platform: row.platform, platformPostId: row.platform_post_id, publishedAt: row.published_at },
      state: { observedAt: row.last_observed_at?.toISOString() ?? null, metrics: row.last_metrics, failureCode: row.failure_code },
    }));
  }

  /** After an attempt: the item's state as its recorded events leave it, and its next due time (null: no longer collected). */
  async itemCollected(item: TrackedItem, state: ItemMetricsState, nextDueAt: Date | null): Promise<void> {
    await this.pool.query(
      `UPDATE metrics_collection_items SET last_observed_at = $3, last_metrics = $4, failure_code = $5, next_due_at = $6 WHERE post_id = $1 AND account_id = $2`,
      [item.postId, item.accountId, state.observedAt, state.metrics === null ? null : JSON.stringify(state.metrics), state.failureCode, nextDueAt],
    );
  }

  async dueAccounts(now: Date, limit: number): Promise<DueAccount[]> {
    const { rows } = await this.pool.query<{ account_id: string; workspace_id: string; platform: Platform; last_observed_at: Date | null }>(
      `SELECT account_id, workspace_id, platform, last_observed_at FROM metrics_collection_accounts
       WHERE next_due_at IS NOT NULL AND next_due_at <= $1 ORDER BY next_due_at LIMIT $2`,
      [now, limit],
    );
    return rows.map((row) => ({ accountId: row.account_id, workspaceId: row.workspace_id, platform: row.platform, lastObservedAt: row.last_observed_at }));
  }

  async accountCollected(accountId: string, observedAt: Date | null, nextDueAt: Date): Promise<void> {
    await this.pool.query('UPDATE metrics_collection_accounts SET last_observed_at = COALESCE($2, last_observed_at), next_due_at = $3 WHERE account_id = $1', [
      accountId,
      observedAt,
      nextDueAt,
    ]);
  }
}

import { Pool } from 'pg';
import { RateLimitPolicy, WindowCounts } from './rate-limit-policy';
import { countsAt, windowIndexAt } from './sliding-window';

/**
 * Counts one request against several policies in a single statement (one
 * round trip), for every gateway replica at once: the counters live in
 * PostgreSQL (an UNLOGGED table, see migration 1700000000600).
 *
 * One row per key and policy holds the current and the previous window; a
 * request in a later window rolls the row forward in place, so old windows
 * never pile up. The upsert takes the row lock, so concurrent requests are
 * counted one after another and each sees a distinct count. Policies are
 * locked in name order, so two requests never wait on each other crosswise.
 */
export class RateLimitStore {
  constructor(private readonly pool: Pool) {}

  async hit(keyId: string, policies: RateLimitPolicy[], now: Date): Promise<Map<string, WindowCounts>> {
    const ordered = [...policies].sort((a, b) => a.name.localeCompare(b.name));
    const { rows } = await this.pool.query<{ policy: string; window_index: string; current_hits: number; previous_hits: number }>(HIT_SQL, [
      keyId,
      ordered.map((policy) => policy.name),
      ordered.map((policy) => policy.windowMs),
      ordered.map((policy) => windowIndexAt(now.getTime(), policy.windowMs)),
    ]);
    return new Map(rows.map((row) => [row.policy, { windowIndex: Number(row.window_index), current: row.current_hits, previous: row.previous_hits }]));
  }

  /**
   * The key's counts under each policy as they stand at `now`, counting nothing
   * (one read, no lock): what a request sent now would be weighed against.
   */
  async peek(keyId: string, policies: RateLimitPolicy[], now: Date): Promise<Map<string, WindowCounts>> {
    const { rows } = await this.pool.query<{ policy: string; window_ms: number; window_index: string; current_hits: number; previous_hits: number }>(
      'SELECT policy, window_ms, window_index, current_hits, previous_hits FROM rate_limit_counters WHERE key_id = $1 AND policy = ANY($2)',
      [keyId, policies.map((policy) => policy.name)],
    );
    const stored = new Map(rows.map((row) => [row.policy, { windowMs: row.window_ms, windowIndex: Number(row.window_index), current: row.current_hits, previous: row.previous_hits }]));
    return new Map(policies.map((policy) => [policy.name, countsAt(stored.get(policy.name) ?? null, policy.windowMs, now.getTime())]));
  }

  /** Deletes counters idle for two whole windows: they hold nothing a request would weigh. */
  async sweep(now: Date): Promise<number> {
    const { rowCount } = await this.pool.query('DELETE FROM rate_limit_counters WHERE (window_index + 2) * window_ms <= $1', [now.getTime()]);
    return rowCount ?? 0;
  }
}

// A row whose window is the caller's or later (a replica whose clock runs ahead opened it) takes
// the hit in its own window; one window behind becomes the previous window; anything older, or a
// different window length, starts afresh.
const HIT_SQL = `
INSERT INTO rate_limit_counters AS c (key_id, policy, window_ms, window_index, current_hits, previous_hits)
SELECT $1, p.policy, p.window_ms, p.window_index, 1, 0
FROM unnest($2::text[], $3::integer[], $4::bigint[]) WITH ORDINALITY AS p(policy, window_ms, window_index, position)
ORDER BY p.position
ON CONFLICT (key_id, policy) DO UPDATE SET
  previous_hits = CASE
    WHEN c.window_ms <> EXCLUDED.window_ms THEN 0
    WHEN c.window_index >= EXCLUDED.window_index THEN c.previous_hits
    WHEN c.window_index = EXCLUDED.window_index - 1 THEN c.current_hits
    ELSE 0 END,
  current_hits = CASE
    WHEN c.window_ms = EXCLUDED.window_ms AND c.window_index >= EXCLUDED.window_index THEN c.current_hits + 1
    ELSE 1 END,
  window_index = CASE
    WHEN c.window_ms = EXCLUDED.window_ms THEN GREATEST(c.window_index, EXCLUDED.window_index)
    ELSE EXCLUDED.window_index END,
  window_ms = EXCLUDED.window_ms
RETURNING policy, window_index, current_hits, previous_hits`;

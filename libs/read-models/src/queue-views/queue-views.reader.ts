import { Pool } from 'pg';
import { CalendarDay, PostingScheduleView, QueueSlotData, QueueSlotView, ResolvedAccountEcho } from '@app/contracts';
import { localDate, localDays, slotsBetween, wallClock, WeeklySchedule } from '@app/queues';

const DAY_MS = 24 * 3_600_000;
/** Slots are computed a week at a time while a list fills up (most lists end in the first week). */
const WEEK_MS = 7 * DAY_MS;
/** The most posts one calendar answer lists (about 16 a day over the longest range); beyond it `truncated` says so. */
export const CALENDAR_MAX_POSTS = 1000;

interface AccountQueueRow {
  account_id: string;
  timezone: string | null;
  slots: QueueSlotData[];
  schedule_updated_at: Date | null;
}

interface CalendarPostRow {
  id: string;
  status: string;
  scheduled_at: Date | null;
  published_at: Date | null;
  content: string;
  accounts: ResolvedAccountEcho[];
}

/** Queries behind the posting queue and the calendar; always scoped to one workspace. */
export class QueueViewsReader {
  constructor(private readonly pool: Pool) {}

  /** The account's schedule, null when none was set (or the account is another workspace's). */
  async schedule(workspaceId: string, accountId: string): Promise<PostingScheduleView | null> {
    const { rows } = await this.pool.query<AccountQueueRow>(
      'SELECT account_id, timezone, slots, schedule_updated_at FROM account_queues WHERE workspace_id = $1 AND account_id = $2 AND timezone IS NOT NULL',
      [workspaceId, accountId],
    );
    const row = rows[0];
    return row ? { accountId: row.account_id, timezone: row.timezone!, slots: row.slots, updatedAt: row.schedule_updated_at!.toISOString() } : null;
  }

  /**
   * The account's next `limit` slots after `now` (no further than `horizonDays`), each with the post
   * that holds it or null (free). A post holding a slot outside the schedule (the schedule changed
   * since it was queued) is listed at its instant too: it still goes out then.
   */
  async upcoming(workspaceId: string, accountId: string, now: Date, limit: number, horizonDays: number): Promise<{ timezone: string | null; slots: QueueSlotView[] }> {
    const schedule = await this.schedule(workspaceId, accountId);
    if (!schedule) return { timezone: null, slots: [] };
    const weekly: WeeklySchedule = { timezone: schedule.timezone, slots: schedule.slots };
    const until = now.getTime() + horizonDays * DAY_MS;
    const instants = new Set<number>();
    for (let start = now.getTime() + 1; start < until && instants.size < limit; start += WEEK_MS) {
      for (const slot of slotsBetween(weekly, new Date(start), new Date(Math.min(start + WEEK_MS, until)))) instants.add(slot.getTime());
    }
    const last = [...instants].sort((a, b) => a - b).slice(0, limit).at(-1);
    const held = await this.pool.query<{ slot_at: Date; id: string; status: string; content: string }>(
      `SELECT c.slot_at, p.id, p.status, p.content_preview AS content FROM queue_claims c JOIN post_views p ON p.id = c.post_id AND p.workspace_id = c.workspace_id
       WHERE c.workspace_id = $1 AND c.account_id = $2 AND c.slot_at > $3 AND ($4::timestamptz IS NULL OR c.slot_at <= $4) ORDER BY c.slot_at`,
      [workspaceId, accountId, now, last === undefined ? null : new Date(last)],
    );
    const byInstant = new Map(held.rows.map((row) => [row.slot_at.getTime(), { id: row.id, status: row.status, content: row.content }]));
    for (const instant of byInstant.keys()) instants.add(instant);
    return {
      timezone: schedule.timezone,
      slots: [...instants]
        .sort((a, b) => a - b)
        .slice(0, limit)
        .map((instant) => ({ slotAt: new Date(instant).toISOString(), localTime: wallClock(new Date(instant), schedule.timezone), post: byInstant.get(instant) ?? null })),
    };
  }

  /**
   * The days from `from` up to `to` (local midnights in `zone`) with the posts scheduled or published
   * on each (by published time once published) and every account's free queue slots (future ones only).
   */
  async calendar(workspaceId: string, range: { from: Date; to: Date; zone: string; now: Date }): Promise<{ days: CalendarDay[]; truncated: boolean }> {
    const { from, to, zone, now } = range;
    const posts = await this.pool.query<CalendarPostRow>(
      `SELECT id, status, scheduled_at, published_at, content_preview AS content, accounts FROM post_views
       WHERE workspace_id = $1 AND COALESCE(published_at, scheduled_at) >= $2 AND COALESCE(published_at, scheduled_at) < $3
       ORDER BY COALESCE(published_at, scheduled_at), id LIMIT $4`,
      [workspaceId, from, to, CALENDAR_MAX_POSTS + 1],
    );
    const queues = await this.pool.query<AccountQueueRow>('SELECT account_id, timezone, slots, schedule_updated_at FROM account_queues WHERE workspace_id = $1 AND timezone IS NOT NULL ORDER BY account_id', [workspaceId]);
    const claims = await this.pool.query<{ account_id: string; slot_at: Date }>('SELECT account_id, slot_at FROM queue_claims WHERE workspace_id = $1 AND slot_at >= $2 AND slot_at < $3', [workspaceId, from, to]);
    const held = new Set(claims.rows.map((row) => `${row.account_id} ${row.slot_at.getTime()}`));
    const days = new Map<string, CalendarDay>(localDays(from, to, zone).map((day) => [day.date, { date: day.date, posts: [], freeSlots: [] }]));
    for (const row of posts.rows.slice(0, CALENDAR_MAX_POSTS)) {
      const at = (row.published_at ?? row.scheduled_at)!;
      days.get(localDate(at, zone))?.posts.push({
        id: row.id,
        status: row.status,
        scheduledAt: row.scheduled_at?.toISOString() ?? null,
        publishedAt: row.published_at?.toISOString() ?? null,
        content: row.content,
        accounts: row.accounts.map((account) => ({ accountId: account.accountId, platform: account.platform, account: account.account })),
      });
    }
    const freeFrom = new Date(Math.max(from.getTime(), now.getTime() + 1));
    const free: Array<{ accountId: string; slotAt: Date }> = [];
    for (const queue of queues.rows) {
      for (const slot of slotsBetween({ timezone: queue.timezone!, slots: queue.slots }, freeFrom, to)) {
        if (!held.has(`${queue.account_id} ${slot.getTime()}`)) free.push({ accountId: queue.account_id, slotAt: slot });
      }
    }
    free.sort((a, b) => a.slotAt.getTime() - b.slotAt.getTime() || a.accountId.localeCompare(b.accountId));
    for (const slot of free) days.get(localDate(slot.slotAt, zone))?.freeSlots.push({ accountId: slot.accountId, slotAt: slot.slotAt.toISOString() });
    return { days: [...days.values()], truncated: posts.rows.length > CALENDAR_MAX_POSTS };
  }
}

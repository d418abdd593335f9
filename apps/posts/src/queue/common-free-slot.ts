import { DomainError, QUEUE_HORIZON_DAYS } from '@app/contracts';
import { slotsBetween } from '@app/queues';
import { hasQueue } from './account-queue.decider';
import { AccountQueueState } from './account-queue.state';

const WEEK_MS = 7 * 24 * 3_600_000;

/**
 * The first instant in [from, until) that is a slot of every account's schedule and held on none
 * of them by another post: where a queued post to all of them goes. Refuses, before anything is
 * claimed, an account without a schedule (queue_schedule_missing, every such account named) and
 * a set of queues with no common free slot in reach (queue_full).
 */
export function firstCommonFreeSlot(queues: ReadonlyArray<{ accountId: string; state: AccountQueueState }>, postId: string, from: Date, until: Date): string {
  const missing = queues.filter((queue) => !hasQueue(queue.state)).map((queue) => queue.accountId);
  if (missing.length > 0) {
    throw new DomainError('queue_schedule_missing', `queue needs a posting schedule on every account; none on ${missing.join(', ')} (PUT /api/v1/accounts/:id/schedule)`, { details: { accountIds: missing } });
  }
  for (let start = from.getTime(); start < until.getTime(); start += WEEK_MS) {
    const window = { from: new Date(start), to: new Date(Math.min(start + WEEK_MS, until.getTime())) };
    const freeOn = queues.map(({ state }) => new Set(slotsBetween(state.schedule!, window.from, window.to).map((slot) => slot.toISOString()).filter((at) => (state.holders[at] ?? postId) === postId)));
    const common = [...freeOn[0]].filter((at) => freeOn.every((free) => free.has(at))).sort();
    if (common.length > 0) return common[0];
  }
  throw new DomainError('queue_full', `no slot is free on every targeted account within ${QUEUE_HORIZON_DAYS} days`, { details: { horizonDays: QUEUE_HORIZON_DAYS } });
}

import { DomainError, QueueEvent, QueueSlotData, SCHEDULE_MAX_SLOTS } from '@app/contracts';
import { Decider } from '@app/decider';
import { isSlotTime, isTimeZone, slotsBetween, WEEKDAYS, weekdayOf } from '@app/queues';
import { ClaimQueueSlot, QueueCommand, ReleaseQueueSlot, SetPostingSchedule } from './account-queue.commands';
import { AccountQueueState, evolve, initialState } from './account-queue.state';

/** The schedule's slots checked, each once, in week order (mon 00:00 first): the same schedule is always stored the same way. */
export function checkScheduleSlots(slots: ReadonlyArray<{ day: string; time: string }>): QueueSlotData[] {
  if (slots.length > SCHEDULE_MAX_SLOTS) {
    throw new DomainError('invalid_schedule_slot', `a schedule has at most ${SCHEDULE_MAX_SLOTS} slots; ${slots.length} were given`, { details: { maxSlots: SCHEDULE_MAX_SLOTS } });
  }
  const checked = slots.map((slot, index) => {
    const day = weekdayOf(slot.day);
    if (!day) throw new DomainError('invalid_schedule_slot', `slots[${index}].day must be mon..sun or monday..sunday, not ${JSON.stringify(slot.day)}`, { details: { slot: index, field: 'day' } });
    if (!isSlotTime(slot.time)) throw new DomainError('invalid_schedule_slot', `slots[${index}].time must be HH:MM (00:00 to 23:59), not ${JSON.stringify(slot.time)}`, { details: { slot: index, field: 'time' } });
    return { day, time: slot.time };
  });
  const unique = new Map(checked.map((slot) => [`${WEEKDAYS.indexOf(slot.day)} ${slot.time}`, slot]));
  return [...unique.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, slot]) => slot);
}

function decideSetSchedule(command: SetPostingSchedule, state: AccountQueueState): QueueEvent[] {
  if (!isTimeZone(command.timezone)) throw new DomainError('invalid_time_zone', `timezone must be an IANA time zone such as Europe/Berlin, not ${JSON.stringify(command.timezone)}`);
  const slots = checkScheduleSlots(command.slots);
  // The same schedule again changes nothing (a retried PUT).
  if (state.schedule && state.schedule.timezone === command.timezone && JSON.stringify(state.schedule.slots) === JSON.stringify(slots)) return [];
  return [{ type: 'PostingScheduleSet', data: { accountId: command.accountId, workspaceId: command.workspaceId, timezone: command.timezone, slots, setAt: command.now.toISOString() } }];
}

/** How far the search for a free slot computes slots at a time: a free slot is usually in the first week. */
const SEARCH_WINDOW_MS = 7 * 24 * 3_600_000;

/** The first slot in [from, until) that no post but `postId` holds, or null. */
export function firstFreeSlot(state: AccountQueueState, postId: string, from: Date, until: Date): string | null {
  if (!state.schedule) return null;
  for (let start = from.getTime(); start < until.getTime(); start += SEARCH_WINDOW_MS) {
    const end = new Date(Math.min(start + SEARCH_WINDOW_MS, until.getTime()));
    for (const slot of slotsBetween(state.schedule, new Date(start), end)) {
      const at = slot.toISOString();
      const holder = state.holders[at];
      if (holder === undefined || holder === postId) return at;
    }
  }
  return null;
}

/** The account has a schedule with at least one slot: a queue a post can go into. */
export function hasQueue(state: AccountQueueState): boolean {
  return state.schedule !== null && state.schedule.slots.length > 0;
}

function decideClaim(command: ClaimQueueSlot, state: AccountQueueState): QueueEvent[] {
  if (!hasQueue(state)) throw new DomainError('queue_schedule_missing', 'the account has no posting schedule: set one with PUT /api/v1/accounts/:id/schedule', { details: { accountIds: [command.accountId] } });
  // A slot is in the future: a post scheduled for now would be due before it is stored.
  const from = new Date(Math.max(command.notBefore.getTime(), command.now.getTime() + 1));
  const slotAt = firstFreeSlot(state, command.postId, from, command.until);
  if (!slotAt) throw new DomainError('queue_full', 'no slot of the schedule is free within the queue horizon', { details: { accountIds: [command.accountId] } });
  const held = state.claims[command.postId];
  if (held === slotAt) return [];
  const base = { accountId: command.accountId, workspaceId: command.workspaceId, postId: command.postId };
  const events: QueueEvent[] = [];
  if (held !== undefined) events.push({ type: 'QueueSlotReleased', data: { ...base, slotAt: held, releasedAt: command.now.toISOString() } });
  events.push({ type: 'QueueSlotClaimed', data: { ...base, slotAt, claimedAt: command.now.toISOString() } });
  return events;
}

function decideRelease(command: ReleaseQueueSlot, state: AccountQueueState): QueueEvent[] {
  const held = state.claims[command.postId];
  if (held === undefined || state.workspaceId === null) return [];
  return [{ type: 'QueueSlotReleased', data: { accountId: command.accountId, workspaceId: state.workspaceId, postId: command.postId, slotAt: held, releasedAt: command.now.toISOString() } }];
}

export function decide(command: QueueCommand, state: AccountQueueState): QueueEvent[] {
  switch (command.type) {
    case 'SetPostingSchedule':
      return decideSetSchedule(command, state);
    case 'ClaimQueueSlot':
      return decideClaim(command, state);
    case 'ReleaseQueueSlot':
      return decideRelease(command, state);
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

/** An account's posting queue (stream queue-<accountId>): its schedule and the slots queued posts hold. */
export const accountQueueDecider: Decider<QueueCommand, QueueEvent, AccountQueueState> = { decide, evolve, initialState };

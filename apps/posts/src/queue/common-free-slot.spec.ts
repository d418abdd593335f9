import { QueueEvent } from '@app/contracts';
import { foldEvents } from '@app/decider';
import { accountQueueDecider } from './account-queue.decider';
import { firstCommonFreeSlot } from './common-free-slot';

const at = '2026-11-02T06:00:00.000Z'; // a Monday
const from = new Date(at);
const until = new Date('2027-01-31T00:00:00Z');
const queue = (accountId: string, timezone: string, slots: Array<[string, string]>, held: Array<[string, string]> = []) => ({
  accountId,
  state: foldEvents(accountQueueDecider, [
    { type: 'PostingScheduleSet', data: { accountId, workspaceId: 'w', timezone, slots: slots.map(([day, time]) => ({ day, time })), setAt: at } },
    ...held.map(([postId, slotAt]): QueueEvent => ({ type: 'QueueSlotClaimed', data: { accountId, workspaceId: 'w', postId, slotAt, claimedAt: at } })),
  ] as QueueEvent[]),
});

describe('firstCommonFreeSlot', () => {
  it('finds the first instant that is a free slot on every account, across time zones', () => {
    // 10:00 in Berlin (CET, +01:00) is 09:00 UTC: the same instant as the UTC account's Tuesday slot.
    const berlin = queue('a-berlin', 'Europe/Berlin', [['mon', '09:00'], ['tue', '10:00']]);
    const utc = queue('a-utc', 'UTC', [['mon', '12:00'], ['tue', '09:00']], [['other', '2026-11-03T09:00:00.000Z']]);
    // Tuesday 3 Nov is held on the UTC account: the next common instant is a week later.
    expect(firstCommonFreeSlot([berlin, utc], 'p-1', from, until)).toBe('2026-11-10T09:00:00.000Z');
    // The post's own claim does not block it.
    expect(firstCommonFreeSlot([berlin, utc], 'other', from, until)).toBe('2026-11-03T09:00:00.000Z');
  });

  it('names every account without a schedule, and refuses when no slot is common', () => {
    const none = { accountId: 'a-none', state: accountQueueDecider.initialState() };
    const error = (() => { try { firstCommonFreeSlot([none, queue('a-1', 'UTC', [['mon', '09:00']])], 'p', from, until); } catch (e) { return e as { code: string; extra: { details: unknown } }; } })();
    expect(error).toMatchObject({ code: 'queue_schedule_missing', extra: { details: { accountIds: ['a-none'] } } });
    expect(() => firstCommonFreeSlot([queue('a-1', 'UTC', [['mon', '09:00']]), queue('a-2', 'UTC', [['mon', '10:00']])], 'p', from, until)).toThrow(expect.objectContaining({ code: 'queue_full' }));
  });
});

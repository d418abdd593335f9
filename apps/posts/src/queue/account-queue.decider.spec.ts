import { QueueEvent } from '@app/contracts';
import { deciderSpec } from '@app/testing';
import { ClaimQueueSlot, SetPostingSchedule } from './account-queue.commands';
import { accountQueueDecider } from './account-queue.decider';

const spec = deciderSpec(accountQueueDecider);
// Monday 2 November 2026, 06:00 UTC.
const now = new Date('2026-11-02T06:00:00Z');
const until = new Date('2027-01-31T00:00:00Z');

const setSchedule = (overrides: Partial<SetPostingSchedule> = {}): SetPostingSchedule => ({
  type: 'SetPostingSchedule',
  workspaceId: 'w-1',
  accountId: 'a-1',
  timezone: 'UTC',
  slots: [{ day: 'mon', time: '09:00' }, { day: 'monday', time: '12:00' }],
  now,
  ...overrides,
});
const claim = (postId: string, overrides: Partial<ClaimQueueSlot> = {}): ClaimQueueSlot => ({ type: 'ClaimQueueSlot', workspaceId: 'w-1', accountId: 'a-1', postId, notBefore: now, until, now, ...overrides });
const scheduled: QueueEvent[] = spec.given([]).when(setSchedule()).events();
const claimed = (postId: string, slotAt: string): QueueEvent => ({ type: 'QueueSlotClaimed', data: { accountId: 'a-1', workspaceId: 'w-1', postId, slotAt, claimedAt: now.toISOString() } });
const released = (postId: string, slotAt: string): QueueEvent => ({ type: 'QueueSlotReleased', data: { accountId: 'a-1', workspaceId: 'w-1', postId, slotAt, releasedAt: now.toISOString() } });

describe('Account queue decider: SetPostingSchedule', () => {
  it('stores the slots read as mon..sun, each once, in week order', () => {
    spec.given([]).when(setSchedule({ slots: [{ day: 'Tuesday', time: '08:00' }, { day: 'mon', time: '12:00' }, { day: 'monday', time: '12:00' }] })).then([
      { type: 'PostingScheduleSet', data: { accountId: 'a-1', workspaceId: 'w-1', timezone: 'UTC', slots: [{ day: 'mon', time: '12:00' }, { day: 'tue', time: '08:00' }], setAt: now.toISOString() } },
    ]);
  });

  it('changes nothing when the same schedule is set again', () => {
    spec.given(scheduled).when(setSchedule({ slots: [{ day: 'monday', time: '12:00' }, { day: 'mon', time: '09:00' }] })).thenNothing();
  });

  it('refuses a zone the date library does not know, and a bad day or time, naming the slot', () => {
    spec.given([]).when(setSchedule({ timezone: 'Mars/Olympus' })).thenRefuses('invalid_time_zone');
    expect(spec.given([]).when(setSchedule({ slots: [{ day: 'mon', time: '09:00' }, { day: 'funday', time: '09:00' }] })).thenRefuses('invalid_schedule_slot').extra.details).toEqual({ slot: 1, field: 'day' });
    expect(spec.given([]).when(setSchedule({ slots: [{ day: 'mon', time: '9:00' }] })).thenRefuses('invalid_schedule_slot').extra.details).toEqual({ slot: 0, field: 'time' });
  });
});

describe('Account queue decider: ClaimQueueSlot and ReleaseQueueSlot', () => {
  it('takes the first free slot, and the next one for the next post', () => {
    const first = spec.given(scheduled).when(claim('p-1'));
    first.then([claimed('p-1', '2026-11-02T09:00:00.000Z')]);
    spec.given(first.history()).when(claim('p-2')).then([claimed('p-2', '2026-11-02T12:00:00.000Z')]);
  });

  it('is a no-op for a post asking again (a retry), and moves a post asked for a later slot', () => {
    const history = spec.given(scheduled).when(claim('p-1')).history();
    spec.given(history).when(claim('p-1')).thenNothing();
    spec.given(history).when(claim('p-1', { notBefore: new Date('2026-11-02T10:00:00Z') })).then([released('p-1', '2026-11-02T09:00:00.000Z'), claimed('p-1', '2026-11-02T12:00:00.000Z')]);
  });

  it('never takes a slot in the past or the present', () => {
    const at = new Date('2026-11-02T09:00:00Z');
    const [event] = spec.given(scheduled).when(claim('p-1', { now: at, notBefore: at })).events();
    expect(event).toMatchObject({ type: 'QueueSlotClaimed', data: { slotAt: '2026-11-02T12:00:00.000Z' } });
  });

  it('refuses an account without a schedule, or with no slots', () => {
    spec.given([]).when(claim('p-1')).thenRefuses('queue_schedule_missing');
    const empty = spec.given([]).when(setSchedule({ slots: [] })).history();
    spec.given(empty).when(claim('p-1')).thenRefuses('queue_schedule_missing');
  });

  it('refuses when every slot up to the horizon is held', () => {
    const horizon = new Date('2026-11-03T00:00:00Z');
    const full = spec.given(scheduled).when(claim('p-1', { until: horizon })).history();
    const fuller = spec.given(full).when(claim('p-2', { until: horizon })).history();
    spec.given(fuller).when(claim('p-3', { until: horizon })).thenRefuses('queue_full');
  });

  it('frees a released slot for the next post; releasing a post without a slot does nothing', () => {
    const history = spec.given(scheduled).when(claim('p-1')).history();
    const freed = spec.given(history).when({ type: 'ReleaseQueueSlot', accountId: 'a-1', postId: 'p-1', now });
    freed.then([released('p-1', '2026-11-02T09:00:00.000Z')]);
    spec.given(freed.history()).when(claim('p-2')).then([claimed('p-2', '2026-11-02T09:00:00.000Z')]);
    spec.given(history).when({ type: 'ReleaseQueueSlot', accountId: 'a-1', postId: 'p-9', now }).thenNothing();
  });
});

/**
 * Events of an account's posting queue, on stream `queue-<accountId>` and NATS subjects
 * `social.v1.queues.<Type>`: the account's weekly schedule and the slots queued posts hold.
 * One stream per account, so every claim on an account's slots is decided on all the
 * claims before it (the append's expected revision serialises them).
 */
export function queueStreamId(accountId: string): string {
  return `queue-${accountId}`;
}

export const QUEUE_EVENT_VERSION = 1;

/** A weekly slot as stored: `day` mon..sun, `time` "HH:MM" in the schedule's zone. */
export interface QueueSlotData {
  day: 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';
  time: string;
}

/** The account's schedule, set (or replaced) in full; claims already made keep their instants. */
export interface PostingScheduleSetData {
  accountId: string;
  workspaceId: string;
  /** IANA zone, e.g. Europe/Berlin. */
  timezone: string;
  slots: QueueSlotData[];
  setAt: string;
}

/** A queued post holds the slot at `slotAt` (an instant, ISO 8601 UTC) on this account. */
export interface QueueSlotClaimedData {
  accountId: string;
  workspaceId: string;
  postId: string;
  slotAt: string;
  claimedAt: string;
}

/** The post gave its slot back (deleted, rescheduled, unscheduled, or another slot was agreed with its other accounts). */
export interface QueueSlotReleasedData {
  accountId: string;
  workspaceId: string;
  postId: string;
  slotAt: string;
  releasedAt: string;
}

export type QueueEvent =
  | { type: 'PostingScheduleSet'; data: PostingScheduleSetData }
  | { type: 'QueueSlotClaimed'; data: QueueSlotClaimedData }
  | { type: 'QueueSlotReleased'; data: QueueSlotReleasedData };

export type QueueEventType = QueueEvent['type'];

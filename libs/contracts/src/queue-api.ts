import type { QueueSlotData } from './queue-events';

/** How far ahead a queued post looks for a free slot, and how far GET /api/v1/queue lists slots. */
export const QUEUE_HORIZON_DAYS = 90;
/** The longest range GET /api/v1/calendar and the posts list's from/to answer (about two months). */
export const CALENDAR_MAX_DAYS = 62;
/** Slots of one weekly schedule (seven days of 24 hourly slots is far below it). */
export const SCHEDULE_MAX_SLOTS = 200;

/** PUT /api/v1/accounts/:id/schedule, as the posts service receives it (days as the request wrote them: the decider reads them). */
export interface SetPostingScheduleCommand {
  workspaceId: string;
  accountId: string;
  timezone: string;
  slots: Array<{ day: string; time: string }>;
}

/** An account's schedule as GET /api/v1/accounts/:id/schedule shows it. */
export interface PostingScheduleView {
  accountId: string;
  timezone: string;
  slots: QueueSlotData[];
  updatedAt: string;
}

/** The reply of queues.set-schedule: the position of the write, for read-your-writes. */
export interface SetPostingScheduleReply {
  position: string;
}

/** One upcoming slot of GET /api/v1/queue: free, or the post that holds it. */
export interface QueueSlotView {
  slotAt: string;
  /** The slot's wall-clock time in the schedule's zone (ISO 8601 with its offset). */
  localTime: string;
  post: { id: string; status: string; content: string } | null;
}

/** A day of GET /api/v1/calendar. */
export interface CalendarDay {
  date: string;
  posts: Array<{
    id: string;
    status: string;
    scheduledAt: string | null;
    publishedAt: string | null;
    content: string;
    accounts: Array<{ accountId: string; platform: string; account: string }>;
  }>;
  freeSlots: Array<{ accountId: string; slotAt: string }>;
}

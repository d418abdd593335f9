// What can be asked of an account's posting queue (decided in account-queue.decider.ts).

/** Set (replace) the weekly schedule; `slots` as the request gave them, days already read as mon..sun where they could be. */
export interface SetPostingSchedule {
  type: 'SetPostingSchedule';
  workspaceId: string;
  accountId: string;
  timezone: string;
  slots: Array<{ day: string; time: string }>;
  now: Date;
}

/**
 * Hold the first slot at or after `notBefore` that no other post holds (the post's own slot counts
 * as free: asking again is a no-op, asking later moves it). Looks no further than `until`.
 */
export interface ClaimQueueSlot {
  type: 'ClaimQueueSlot';
  workspaceId: string;
  accountId: string;
  postId: string;
  notBefore: Date;
  until: Date;
  now: Date;
}

/** Give the post's slot back (none held: nothing to do). */
export interface ReleaseQueueSlot {
  type: 'ReleaseQueueSlot';
  accountId: string;
  postId: string;
  now: Date;
}

export type QueueCommand = SetPostingSchedule | ClaimQueueSlot | ReleaseQueueSlot;


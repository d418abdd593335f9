import { QueueEvent } from '@app/contracts';
import { WeeklySchedule } from '@app/queues';

/** An account's posting queue: its weekly schedule and which post holds which slot. */
export interface AccountQueueState {
  /** The workspace of the account, once anything happened on its queue. */
  workspaceId: string | null;
  schedule: WeeklySchedule | null;
  /** Slot instant (ISO 8601 UTC) → the post holding it. */
  holders: Readonly<Record<string, string>>;
  /** Post id → the slot instant it holds (a post holds at most one slot per account). */
  claims: Readonly<Record<string, string>>;
}

export const initialState = (): AccountQueueState => ({ workspaceId: null, schedule: null, holders: {}, claims: {} });

function without<T>(record: Readonly<Record<string, T>>, key: string): Record<string, T> {
  const { [key]: _gone, ...rest } = record;
  return rest;
}

export function evolve(state: AccountQueueState, event: QueueEvent): AccountQueueState {
  switch (event.type) {
    case 'PostingScheduleSet':
      return { ...state, workspaceId: event.data.workspaceId, schedule: { timezone: event.data.timezone, slots: event.data.slots } };
    case 'QueueSlotClaimed':
      return {
        ...state,
        workspaceId: event.data.workspaceId,
        holders: { ...state.holders, [event.data.slotAt]: event.data.postId },
        claims: { ...state.claims, [event.data.postId]: event.data.slotAt },
      };
    case 'QueueSlotReleased':
      return { ...state, holders: without(state.holders, event.data.slotAt), claims: without(state.claims, event.data.postId) };
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

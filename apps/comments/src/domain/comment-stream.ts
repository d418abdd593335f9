import { randomUUID } from 'node:crypto';
import { COMMENT_EVENT_VERSION, CommentEvent, commentStreamId } from '@app/contracts';
import { EventStore, ExpectedRevision, NewEvent } from '@app/event-store';
import { CommentState, evolve, initialState } from './comment.decider';

/** A comment as rebuilt from its stream, with the revision to append after. */
export interface LoadedComment {
  state: CommentState;
  expected: ExpectedRevision;
}

export async function loadComment(store: EventStore, commentId: string): Promise<LoadedComment> {
  const history = await store.readStream(commentStreamId(commentId));
  const state = history.map((e) => ({ type: e.type, data: e.data }) as CommentEvent).reduce(evolve, initialState());
  const last = history.at(-1);
  return { state, expected: last ? last.revision : 'no_stream' };
}

export function toNewEvents(events: CommentEvent[], workspaceId: string, requestId: string | undefined): NewEvent[] {
  return events.map((event) => ({
    eventId: randomUUID(),
    type: event.type,
    data: event.data,
    metadata: { workspaceId, version: COMMENT_EVENT_VERSION, ...(requestId ? { requestId } : {}) },
  }));
}

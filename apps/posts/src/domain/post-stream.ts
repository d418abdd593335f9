import { randomUUID } from 'node:crypto';
import { POST_EVENT_VERSION, PostEvent, postStreamId } from '@app/contracts';
import { EventStore, ExpectedRevision, NewEvent, RecordedEvent } from '@app/event-store';
import { evolve, initialState, PostState } from './post.decider';

/** A post as rebuilt from its stream, with the revision to append after. */
export interface LoadedPost {
  state: PostState;
  expected: ExpectedRevision;
  last: RecordedEvent | null;
}

export async function loadPost(store: EventStore, postId: string): Promise<LoadedPost> {
  const history = await store.readStream(postStreamId(postId));
  const state = history.map((e) => ({ type: e.type, data: e.data }) as PostEvent).reduce(evolve, initialState());
  const last = history.at(-1) ?? null;
  return { state, expected: last ? last.revision : 'no_stream', last };
}

export function toNewEvents(events: PostEvent[], workspaceId: string, requestId: string | undefined): NewEvent[] {
  return events.map((event) => ({
    eventId: randomUUID(),
    type: event.type,
    data: event.data,
    metadata: { workspaceId, version: POST_EVENT_VERSION, ...(requestId ? { requestId } : {}) },
  }));
}

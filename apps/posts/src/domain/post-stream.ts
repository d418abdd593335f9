import { POST_EVENT_VERSION, PostEvent, postStreamId } from '@app/contracts';
import { EventStore, LoadedAggregate, loadAggregate, NewEvent, toNewEvents } from '@app/event-store';
import { evolve, initialState, PostState } from './post.state';

export function loadPost(store: EventStore, postId: string): Promise<LoadedAggregate<PostState>> {
  return loadAggregate<PostState, PostEvent>(store, postStreamId(postId), evolve, initialState);
}

export function toNewPostEvents(events: PostEvent[], workspaceId: string, requestId: string | undefined): NewEvent[] {
  return toNewEvents(events, { workspaceId, version: POST_EVENT_VERSION, requestId });
}

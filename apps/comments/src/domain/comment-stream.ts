import { COMMENT_EVENT_VERSION, CommentEvent, commentStreamId } from '@app/contracts';
import { EventStore, LoadedAggregate, loadAggregate, NewEvent, toNewEvents } from '@app/event-store';
import { CommentState, evolve, initialState } from './comment.decider';

export function loadComment(store: EventStore, commentId: string): Promise<LoadedAggregate<CommentState>> {
  return loadAggregate<CommentState, CommentEvent>(store, commentStreamId(commentId), evolve, initialState);
}

export function toNewCommentEvents(events: CommentEvent[], workspaceId: string, requestId: string | undefined): NewEvent[] {
  return toNewEvents(events, { workspaceId, version: COMMENT_EVENT_VERSION, requestId });
}

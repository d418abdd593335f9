import { COMMENT_EVENT_VERSION, CommentEvent } from '@app/contracts';
import { NewEvent, toNewEvents } from '@app/event-store';

export function toNewCommentEvents(events: CommentEvent[], workspaceId: string, requestId: string | undefined): NewEvent[] {
  return toNewEvents(events, { workspaceId, version: COMMENT_EVENT_VERSION, requestId });
}

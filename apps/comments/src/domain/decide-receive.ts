import { CommentEvent } from '@app/contracts';
import { ReceiveComment } from './comment.commands';
import { CommentState } from './comment.state';

/** A comment seen for the first time is stored; seen again (a poll and a webhook), it changes nothing. */
export function decideReceive(command: ReceiveComment, state: CommentState): CommentEvent[] {
  if (state.exists) return [];
  const receivedAt = command.now.toISOString();
  return [{ type: 'CommentReceived', data: { ...command.comment, commentedAt: command.comment.commentedAt ?? receivedAt, receivedAt } }];
}

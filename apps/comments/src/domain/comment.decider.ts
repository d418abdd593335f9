import { CommentEvent } from '@app/contracts';
import { Decider } from '@app/decider';
import { CommentCommand } from './comment.commands';
import { CommentState, evolve, initialState } from './comment.state';
import { decideReceive } from './decide-receive';
import { decideDeleteReply, decideSetHidden } from './decide-moderation';
import { decideReclassify } from './decide-reclassify';
import { decideRecordReply, decideStartReply } from './decide-reply';

/**
 * Routes each command to its decision. Commands: comment.commands.ts; state and evolve:
 * comment.state.ts; decisions: decide-*.ts (one file per decision family).
 */
export function decide(command: CommentCommand, state: CommentState): CommentEvent[] {
  switch (command.type) {
    case 'ReceiveComment':
      return decideReceive(command, state);
    case 'StartReply':
      return decideStartReply(command, state);
    case 'RecordReply':
      return decideRecordReply(command, state);
    case 'HideComment':
    case 'UnhideComment':
      return decideSetHidden(command, state);
    case 'DeleteReply':
      return decideDeleteReply(command, state);
    case 'ReclassifyComment':
      return decideReclassify(command, state);
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

/** The Comment aggregate: what the command runner loads, decides and appends with. */
export const commentDecider: Decider<CommentCommand, CommentEvent, CommentState> = { decide, evolve, initialState };

import { DomainError, PostEvent } from '@app/contracts';
import { Decider } from '@app/decider';
import { decideCreate } from './decide-create';
import { decideDelete, decideEdit } from './decide-edit';
import { decideFirstComment, decideOutcome, decidePublish, decideRetry, decideStart } from './decide-publish';
import { decideApprove, decideReject } from './decide-review';
import { decideAbandon, decideFire } from './decide-schedule';
import { PostCommand } from './post.commands';
import { evolve, initialState, PostState } from './post.state';

/**
 * Routes each command to its decision family; every command but CreatePost needs a live post.
 * Commands: post.commands.ts (approvals: decide-review.ts); state and evolve: post.state.ts; decisions: decide-*.ts.
 */
export function decide(command: PostCommand, state: PostState): PostEvent[] {
  if (command.type === 'CreatePost') return decideCreate(command, state);
  if (!state.exists || state.deleted) throw new DomainError('not_found', 'no such post in this workspace');
  switch (command.type) {
    case 'EditPost':
      return decideEdit(command, state);
    case 'DeletePost':
      return decideDelete(command, state);
    case 'PublishPost':
      return decidePublish(command, state);
    case 'RetryPublish':
      return decideRetry(command, state);
    case 'StartAccountPublish':
      return decideStart(command, state);
    case 'RecordAccountOutcome':
      return decideOutcome(command, state);
    case 'RecordFirstComment':
      return decideFirstComment(command, state);
    case 'FireScheduledPost':
      return decideFire(command, state);
    case 'AbandonPublication':
      return decideAbandon(command, state);
    case 'ApprovePost':
      return decideApprove(command, state);
    case 'RejectPost':
      return decideReject(command, state);
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

/** The Post aggregate: what the command runner loads, decides and appends with. */
export const postDecider: Decider<PostCommand, PostEvent, PostState> = { decide, evolve, initialState };

import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { CommentEvent, commentStreamId } from '@app/contracts';
import { CommandOutcome, CommandRunner, EVENT_STORE, EventStore } from '@app/event-store';
import { CommentCommand } from './comment.commands';
import { commentDecider } from './comment.decider';
import { CommentState } from './comment.state';
import { toNewCommentEvents } from './comment-stream';
import { unknownComment } from './unknown-comment';

/**
 * The comments' use of the shared command runner (libs/event-store), for the
 * commands on a stored comment (replies, moderation; ingestion appends receipts
 * without reading, see comment-ingestion.ts). Two commands on one comment at
 * once are decided one after the other, or again after losing the race to
 * another replica.
 */
@Injectable()
export class CommentCommandRunner {
  private readonly runner: CommandRunner<CommentCommand, CommentEvent, CommentState>;

  constructor(@Inject(EVENT_STORE) store: EventStore, config: AppConfig) {
    this.runner = new CommandRunner({
      store,
      decider: commentDecider,
      streamId: commentStreamId,
      toNewEvents: (events, state, requestId) => toNewCommentEvents(events, workspaceOf(state), requestId),
      now: () => config.now(),
      aggregate: 'comment',
    });
  }

  load(commentId: string): Promise<CommentState> {
    return this.runner.load(commentId).then((loaded) => loaded.state);
  }

  /** `workspaceId` is the caller's: a comment of another workspace is unknown to it. */
  run(commentId: string, workspaceId: string, build: (now: Date) => CommentCommand, requestId: string | undefined): Promise<CommandOutcome<CommentEvent, CommentState>> {
    const scoped = (state: CommentState, now: Date) => {
      if (state.exists && state.data.workspaceId !== workspaceId) throw unknownComment();
      return build(now);
    };
    return this.runner.run(commentId, { build: scoped, requestId });
  }
}

/** A decision always leaves the comment existing (a receipt makes it; nothing else applies to a missing one). */
function workspaceOf(state: CommentState): string {
  if (!state.exists) throw new Error('events decided for a comment that does not exist');
  return state.data.workspaceId;
}

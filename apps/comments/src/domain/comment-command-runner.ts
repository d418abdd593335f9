import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { CommentEvent, commentStreamId, DomainError } from '@app/contracts';
import { EVENT_STORE, EventStore, formatPosition, WrongExpectedRevisionError } from '@app/event-store';
import { CommentCommand, CommentState, decide } from './comment.decider';
import { loadComment, toNewCommentEvents } from './comment-stream';

const MAX_CONFLICT_RETRIES = 10;

/**
 * Load → decide → append with the expected revision, for the commands on a stored
 * comment (replies; ingestion appends receipts without reading, see comment-ingestion.ts).
 * A conflict means another command won the race (two replies at once): decide again
 * on what it wrote.
 */
@Injectable()
export class CommentCommandRunner {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly config: AppConfig,
  ) {}

  load(commentId: string): Promise<CommentState> {
    return loadComment(this.store, commentId).then((loaded) => loaded.state);
  }

  /** The events appended (none when the command decided nothing) and the position of the last one. */
  async run(
    commentId: string,
    workspaceId: string,
    build: (now: Date) => CommentCommand,
    requestId: string | undefined,
  ): Promise<{ events: CommentEvent[]; position: string | null }> {
    for (let attempt = 0; ; attempt++) {
      const loaded = await loadComment(this.store, commentId);
      const events = decide(build(this.config.now()), loaded.state);
      if (events.length === 0) return { events, position: null };
      try {
        const appended = await this.store.append(commentStreamId(commentId), toNewCommentEvents(events, workspaceId, requestId), loaded.expected);
        return { events, position: formatPosition(appended.position) };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
        if (attempt >= MAX_CONFLICT_RETRIES) throw new DomainError('service_unavailable', 'the comment is changing too fast; retry');
      }
    }
  }
}

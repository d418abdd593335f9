import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { DomainError, PostEvent, postStreamId } from '@app/contracts';
import { EVENT_STORE, EventStore, formatPosition, WrongExpectedRevisionError } from '@app/event-store';
import { decide, evolve, PostCommand, PostState } from './post.decider';
import { loadPost, toNewEvents } from './post-stream';

export interface RunResult {
  /** The post after the command (unchanged when it decided nothing). */
  state: PostState;
  events: PostEvent[];
  /** Position of the last event of the stream after the command ("commit:prepare"), or null if there is none. */
  position: string | null;
}

const MAX_CONFLICT_RETRIES = 20;

/**
 * Load → decide → append with the expected revision. A conflict means another
 * command on the same post won the race: decide again on what it wrote (the
 * publisher records up to ten account outcomes on one post at once).
 */
@Injectable()
export class PostCommandRunner {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly config: AppConfig,
  ) {}

  /**
   * `scope`: the caller's workspace (a post of another one is not found), or
   * 'internal' for the publisher and scheduler. `expectedVersion`: If-Match.
   */
  async run(
    postId: string,
    scope: { workspaceId: string; expectedVersion?: number | null } | 'internal',
    build: (state: PostState, now: Date) => PostCommand,
    requestId: string | undefined,
  ): Promise<RunResult> {
    for (let attempt = 0; ; attempt++) {
      const loaded = await loadPost(this.store, postId);
      // A post of another workspace does not exist for the caller.
      if (scope !== 'internal' && loaded.state.exists && loaded.state.data.workspaceId !== scope.workspaceId) {
        throw new DomainError('not_found', 'no such post in this workspace');
      }
      if (scope !== 'internal' && scope.expectedVersion != null && loaded.state.exists && loaded.state.version !== scope.expectedVersion) {
        throw new DomainError('precondition_failed', `the post is at version ${loaded.state.version}, not ${scope.expectedVersion}`, { details: { version: loaded.state.version } });
      }
      const events = decide(build(loaded.state, this.config.now()), loaded.state);
      if (events.length === 0) {
        return { state: loaded.state, events, position: loaded.last ? formatPosition(loaded.last.position) : null };
      }
      const workspaceId = loaded.state.exists ? loaded.state.data.workspaceId : (events[0].data as { workspaceId: string }).workspaceId;
      try {
        const appended = await this.store.append(postStreamId(postId), toNewEvents(events, workspaceId, requestId), loaded.expected);
        return { state: events.reduce(evolve, loaded.state), events, position: formatPosition(appended.position) };
      } catch (error) {
        if (error instanceof WrongExpectedRevisionError && attempt < MAX_CONFLICT_RETRIES) continue;
        if (error instanceof WrongExpectedRevisionError) throw new DomainError('service_unavailable', 'the post is changing too fast; retry');
        throw error;
      }
    }
  }
}

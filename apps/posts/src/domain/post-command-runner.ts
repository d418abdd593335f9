import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { DomainError, PostEvent, postStreamId } from '@app/contracts';
import { EVENT_STORE, EventStore, formatPosition, LoadedAggregate, NewEvent, WrongExpectedRevisionError } from '@app/event-store';
import { decide, evolve, initialState, PostCommand, PostState } from './post.decider';
import { loadPost, toNewPostEvents } from './post-stream';

export interface RunResult {
  /** The post after the command (unchanged when it decided nothing). */
  state: PostState;
  /** The events this command decided (none: nothing to do, e.g. a repeat). */
  events: PostEvent[];
  /** Position of the last event of the stream after the command ("commit:prepare"), or null if there is none. */
  position: string | null;
}

/** The caller's workspace (a post of another one is not found) and If-Match, or 'internal' (publisher, scheduler). */
export type CommandScope = { workspaceId: string; expectedVersion?: number | null } | 'internal';

interface Pending {
  /** The post cannot exist yet (a fresh id): skip reading its stream on the first try. */
  fresh: boolean;
  scope: CommandScope;
  build: (state: PostState, now: Date) => PostCommand;
  requestId: string | undefined;
  resolve: (result: RunResult) => void;
  reject: (error: unknown) => void;
}

const MAX_CONFLICT_RETRIES = 20;

const NO_POST: LoadedAggregate<PostState> = { state: initialState(), expected: 'no_stream', last: null };

/**
 * Load → decide → append with the expected revision, for every command on a
 * post. Commands on the same post that arrive together in this process are
 * decided one after the other on the evolving state and appended in one go
 * (ten account outcomes of one publication arrive at once); a conflict with
 * another replica means it won the race: decide again on what it wrote.
 */
@Injectable()
export class PostCommandRunner {
  private readonly queues = new Map<string, Pending[]>();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly config: AppConfig,
  ) {}

  run(
    postId: string,
    scope: CommandScope,
    build: (state: PostState, now: Date) => PostCommand,
    requestId: string | undefined,
    options: { fresh?: boolean } = {},
  ): Promise<RunResult> {
    return new Promise((resolve, reject) => {
      const queue = this.queues.get(postId);
      const pending = { fresh: options.fresh === true, scope, build, requestId, resolve, reject };
      if (queue) {
        queue.push(pending);
        return;
      }
      this.queues.set(postId, [pending]);
      void this.drain(postId);
    });
  }

  /** Runs the queued commands of a post in batches until none is left. */
  private async drain(postId: string): Promise<void> {
    const queue = this.queues.get(postId)!;
    while (queue.length > 0) {
      const batch = queue.splice(0, queue.length);
      await this.runBatch(postId, batch).catch((error: unknown) => batch.forEach((p) => p.reject(error)));
    }
    this.queues.delete(postId);
  }

  private async runBatch(postId: string, batch: Pending[]): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      // A fresh id needs no read: the append's no_stream check catches the impossible collision.
      const loaded = attempt === 0 && batch.every((p) => p.fresh) ? NO_POST : await loadPost(this.store, postId);
      let state = loaded.state;
      const decided: Array<{ pending: Pending; events: PostEvent[] } | { pending: Pending; error: unknown }> = [];
      const toAppend: NewEvent[] = [];
      for (const pending of batch) {
        try {
          checkScope(pending.scope, state);
          const events = decide(pending.build(state, this.config.now()), state);
          if (events.length > 0) {
            const workspaceId = state.exists ? state.data.workspaceId : (events[0].data as { workspaceId: string }).workspaceId;
            toAppend.push(...toNewPostEvents(events, workspaceId, pending.requestId));
            state = events.reduce(evolve, state);
          }
          decided.push({ pending, events });
        } catch (error) {
          decided.push({ pending, error });
        }
      }
      let position = loaded.last ? formatPosition(loaded.last.position) : null;
      if (toAppend.length > 0) {
        try {
          position = formatPosition((await this.store.append(postStreamId(postId), toAppend, loaded.expected)).position);
        } catch (error) {
          if (error instanceof WrongExpectedRevisionError && attempt < MAX_CONFLICT_RETRIES) continue;
          if (error instanceof WrongExpectedRevisionError) throw new DomainError('service_unavailable', 'the post is changing too fast; retry');
          throw error;
        }
      }
      for (const outcome of decided) {
        if ('error' in outcome) outcome.pending.reject(outcome.error);
        else outcome.pending.resolve({ state, events: outcome.events, position });
      }
      return;
    }
  }
}

function checkScope(scope: CommandScope, state: PostState): void {
  if (scope === 'internal' || !state.exists) return;
  // A post of another workspace does not exist for the caller.
  if (state.data.workspaceId !== scope.workspaceId) throw new DomainError('not_found', 'no such post in this workspace');
  if (scope.expectedVersion != null && state.version !== scope.expectedVersion) {
    throw new DomainError('precondition_failed', `the post is at version ${state.version}, not ${scope.expectedVersion}`, { details: { version: state.version } });
  }
}

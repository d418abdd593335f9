import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { DomainError, PostEvent, postStreamId } from '@app/contracts';
import { CommandOutcome, CommandRunner, EVENT_STORE, EventStore, LoadedAggregate } from '@app/event-store';
import { PostCommand } from './post.commands';
import { postDecider } from './post.decider';
import { PostState } from './post.state';
import { toNewPostEvents } from './post-stream';

/** The caller's workspace (a post of another one is not found) and If-Match, or 'internal' (publisher, scheduler). */
export type CommandScope = { workspaceId: string; expectedVersion?: number | null } | 'internal';

/**
 * The posts' use of the shared command runner (libs/event-store): commands on
 * one post are batched and appended with the expected revision, and decided
 * again on a conflict. What is the posts' own: the caller's scope, checked on
 * the state each command is decided on.
 */
@Injectable()
export class PostCommandRunner {
  private readonly runner: CommandRunner<PostCommand, PostEvent, PostState>;

  constructor(@Inject(EVENT_STORE) store: EventStore, config: AppConfig) {
    this.runner = new CommandRunner({
      store,
      decider: postDecider,
      streamId: postStreamId,
      toNewEvents: (events, state, requestId) => toNewPostEvents(events, workspaceOf(state), requestId),
      now: () => config.now(),
      aggregate: 'post',
    });
  }

  /** The post as its stream is now. */
  load(postId: string): Promise<LoadedAggregate<PostState>> {
    return this.runner.load(postId);
  }

  run(
    postId: string,
    scope: CommandScope,
    build: (state: PostState, now: Date) => PostCommand,
    requestId: string | undefined,
    options: { fresh?: boolean } = {},
  ): Promise<CommandOutcome<PostEvent, PostState>> {
    const scoped = (state: PostState, now: Date) => {
      checkScope(scope, state);
      return build(state, now);
    };
    return this.runner.run(postId, { build: scoped, requestId, fresh: options.fresh });
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

/** A decision always leaves the post existing (a create makes it; nothing else applies to a missing post). */
function workspaceOf(state: PostState): string {
  if (!state.exists) throw new Error('events decided for a post that does not exist');
  return state.data.workspaceId;
}

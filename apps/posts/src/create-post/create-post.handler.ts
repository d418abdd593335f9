import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { v5 as uuidv5, v7 as uuidv7 } from 'uuid';
import { CreatePostCommand, CreatePostReply, DomainError, postStreamId } from '@app/contracts';
import { EVENT_STORE, EventStore, formatPosition, WrongExpectedRevisionError } from '@app/event-store';
import { WorkspaceStore } from '@app/workspaces';
import { decide, evolve } from '../domain/post.decider';
import { loadPost, toNewEvents } from '../domain/post-stream';
import { createPostResponse } from './create-post.response';
import { resolveAccountRefs } from './resolve-account-refs';

/** Namespace for post ids derived from (workspace, Idempotency-Key). */
const IDEMPOTENT_POST_NAMESPACE = '7f0d3a52-2c1e-4a8e-9b59-5f2a0c6e1d47';

/** Canonical JSON (keys sorted) so the same body always hashes the same. */
function requestHash(body: unknown): string {
  const canonical = JSON.stringify(body, (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : value,
  );
  return createHash('sha256').update(canonical).digest('hex');
}

/**
 * Creates a post. With an Idempotency-Key the post id is derived from the key,
 * so a retry finds the first post (and answers as the first time) and two
 * racing retries are settled by the store's no_stream check: one appends.
 */
@Injectable()
export class CreatePostHandler {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly workspaces: WorkspaceStore,
  ) {}

  async handle(command: CreatePostCommand, requestId: string | undefined): Promise<CreatePostReply> {
    const key = command.idempotencyKey;
    const postId = key ? uuidv5(`${command.workspaceId}\n${key}`, IDEMPOTENT_POST_NAMESPACE) : uuidv7();
    const idempotency = key ? { key, requestHash: requestHash(command.body) } : null;
    for (let attempt = 0; ; attempt++) {
      const loaded = key ? await loadPost(this.store, postId) : { state: { exists: false as const }, expected: 'no_stream' as const, last: null };
      // A replay answers from the stored post, even if an account has since been disconnected.
      const accounts = loaded.state.exists ? [] : resolveAccountRefs(command.body, await this.workspaces.listAccounts(command.workspaceId));
      const events = decide(
        {
          type: 'CreatePost',
          postId,
          workspaceId: command.workspaceId,
          content: command.body.content,
          mediaUrls: command.body.mediaUrls ?? [],
          firstComments: command.body.firstComments ?? [],
          accounts,
          scheduledAt: command.body.scheduledAt,
          publishNow: command.body.publishNow === true,
          idempotency,
          now: new Date(),
        },
        loaded.state,
      );
      if (events.length === 0 && loaded.state.exists && loaded.last) {
        return {
          response: createPostResponse(loaded.state.data, loaded.state.status),
          position: formatPosition(loaded.last.position),
          replayed: true,
        };
      }
      try {
        const appended = await this.store.append(postStreamId(postId), toNewEvents(events, command.workspaceId, requestId), loaded.expected);
        const state = events.reduce(evolve, loaded.state);
        if (!state.exists) throw new Error('PostCreated left no post');
        return { response: createPostResponse(state.data, state.status), position: formatPosition(appended.position), replayed: false };
      } catch (error) {
        // Only a racing retry with the same key can collide; decide again on what it wrote.
        if (error instanceof WrongExpectedRevisionError && key && attempt === 0) continue;
        if (error instanceof WrongExpectedRevisionError) throw new DomainError('service_unavailable', 'the post changed concurrently; retry');
        throw error;
      }
    }
  }
}

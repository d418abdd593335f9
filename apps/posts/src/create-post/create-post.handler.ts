import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { v5 as uuidv5, v7 as uuidv7 } from 'uuid';
import { CreatePostCommand, PostCommandReply } from '@app/contracts';
import { Account, AccountStore } from '@app/accounts';
import { PostCommandRunner } from '../domain/post-command-runner';
import { PostCommand, Review } from '../domain/post.commands';
import { PostState } from '../domain/post.state';
import { ReviewPolicy } from '../review/review-policy';
import { resolveAccountRefs } from './resolve-account-refs';

/** A create ready to decide: its post id, the command built on the post's state, and whether the id is new (nothing to read back). */
export interface PreparedCreate {
  postId: string;
  build: (state: PostState, now: Date) => PostCommand;
  fresh: boolean;
}

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
 * Creates a post (and with publishNow asks for its publication in the same
 * append). With an Idempotency-Key the post id is derived from the key, so a
 * retry finds the first post and answers as the first time, and two racing
 * retries are settled by the store's no_stream check: one appends.
 */
@Injectable()
export class CreatePostHandler {
  constructor(
    private readonly runner: PostCommandRunner,
    private readonly accounts: AccountStore,
    private readonly reviews: ReviewPolicy,
  ) {}

  async handle(command: CreatePostCommand, requestId: string | undefined): Promise<PostCommandReply> {
    const context = { workspaceAccounts: await this.accounts.list(command.workspaceId), review: await this.reviews.reviewFor(command.workspaceId, command.actor) };
    const { postId, build, fresh } = this.prepare(command, context);
    const result = await this.runner.run(postId, { workspaceId: command.workspaceId }, build, requestId, { fresh });
    return { postId, position: result.position!, replayed: result.events.length === 0 };
  }

  /**
   * The create as the decider takes it; the bulk import (bulk-create.handler.ts) prepares each
   * row with it, so a row is decided by the very rules of a single create.
   */
  prepare(command: CreatePostCommand, context: { workspaceAccounts: Account[]; review: Review | undefined }): PreparedCreate {
    const key = command.idempotencyKey;
    const postId = key ? uuidv5(`${command.workspaceId}\n${key}`, IDEMPOTENT_POST_NAMESPACE) : uuidv7();
    const idempotency = key ? { key, requestHash: requestHash(command.body) } : null;
    const { workspaceAccounts, review } = context;
    return {
      postId,
      build: (state, now) => ({
        type: 'CreatePost',
        postId,
        workspaceId: command.workspaceId,
        content: command.body.content,
        mediaUrls: command.body.mediaUrls ?? [],
        altText: command.body.altText ?? [],
        firstComments: command.body.firstComments ?? [],
        thread: command.body.thread ?? [],
        autoSplit: command.body.autoSplit === true,
        overrides: command.body.overrides,
        platformOptions: command.body.platformOptions,
        // A replay answers from the stored post, even if an account has since been disconnected.
        accounts: state.exists ? [] : resolveAccountRefs(command.body, workspaceAccounts, { publishNow: command.body.publishNow === true }),
        scheduledAt: command.body.scheduledAt,
        publishNow: command.body.publishNow === true,
        idempotency,
        review,
        now,
      }),
      // Without a key the id is new (UUIDv7): nothing to read back.
      fresh: key === null,
    };
  }
}

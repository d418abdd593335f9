import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { v5 as uuidv5, v7 as uuidv7 } from 'uuid';
import { CreatePostCommand, PostCommandReply, TargetAccount } from '@app/contracts';
import { Account, AccountStore } from '@app/accounts';
import { SameMomentReads } from '@app/database';
import { PostCommandRunner } from '../domain/post-command-runner';
import { CreatePost, Review } from '../domain/post.commands';
import { postDecider } from '../domain/post.decider';
import { PostState } from '../domain/post.state';
import { checkQueueRequest, QueuePlacement } from '../queue/queue-placement';
import { ReviewPolicy } from '../review/review-policy';
import { resolveAccountRefs } from './resolve-account-refs';

/** A create ready to decide: its post id, the command built on the post's state, and whether the id is new (nothing to read back). */
export interface PreparedCreate {
  postId: string;
  /** scheduledAt: the body's, unless the post was placed in a queue slot. */
  build: (state: PostState, now: Date, scheduledAt?: string) => CreatePost;
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
  /** The workspaces' accounts, read in one statement for the creates of one moment (each read after its command arrived). */
  private readonly workspaceAccounts: SameMomentReads<string, Account[]>;

  constructor(
    private readonly runner: PostCommandRunner,
    accounts: AccountStore,
    private readonly queue: QueuePlacement,
    private readonly reviews: ReviewPolicy,
  ) {
    this.workspaceAccounts = new SameMomentReads((workspaceIds) => accounts.listOfWorkspaces(workspaceIds));
  }

  async handle(command: CreatePostCommand, requestId: string | undefined): Promise<PostCommandReply> {
    // Both reads at once: each is one statement per moment, and neither depends on the other.
    const [accounts, review] = await Promise.all([this.workspaceAccounts.get(command.workspaceId), this.reviews.reviewFor(command.workspaceId, command.actor)]);
    const workspaceAccounts = accounts ?? [];
    const { postId, build, fresh } = this.prepare(command, { workspaceAccounts, review });
    // queue: true — the time comes from the accounts' posting queues (queue/queue-placement.ts).
    const queuedAt = await this.placeInQueue(command, postId, !fresh, () => resolveAccountRefs(command.body, workspaceAccounts), build, requestId);
    const result = await this.runner
      .run(postId, { workspaceId: command.workspaceId }, (state, now) => build(state, now, queuedAt?.slotAt ?? command.body.scheduledAt), requestId, { fresh })
      .catch(async (error: unknown) => {
        // Refused after its slots were claimed (a race on the same Idempotency-Key): give them back,
        // unless the post exists — then the claims are the winner's, made under the same post id.
        if (queuedAt && !(await this.runner.load(postId)).state.exists) await this.queue.release(postId, queuedAt.accountIds, requestId);
        throw error;
      });
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
      build: (state, now, scheduledAt = command.body.scheduledAt) => ({
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
        scheduledAt,
        publishNow: command.body.publishNow === true,
        idempotency,
        review,
        now,
      }),
      // Without a key the id is new (UUIDv7): nothing to read back.
      fresh: key === null,
    };
  }

  /**
   * For queue: true, the slot the post takes, claimed on each account's queue; null otherwise, or
   * when the Idempotency-Key's post already exists (a replay claims nothing, it answers the first post).
   * The post's own rules are decided first (`check`), so a post they refuse claims no slot.
   */
  private async placeInQueue(
    command: CreatePostCommand,
    postId: string,
    mayExist: boolean,
    targets: () => TargetAccount[],
    build: PreparedCreate['build'],
    requestId: string | undefined,
  ): Promise<{ slotAt: string; accountIds: string[] } | null> {
    checkQueueRequest(command.body);
    if (command.body.queue !== true) return null;
    if (mayExist && (await this.runner.load(postId)).state.exists) return null;
    const fresh = postDecider.initialState();
    const accountIds = targets().map((account) => account.accountId);
    const check = (slotAt: string, now: Date) => void postDecider.decide(build(fresh, now, slotAt), fresh);
    const slotAt = await this.queue.place({ workspaceId: command.workspaceId, postId, accountIds, check, requestId });
    return { slotAt, accountIds };
  }
}

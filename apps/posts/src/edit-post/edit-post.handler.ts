import { Injectable } from '@nestjs/common';
import { DeletePostCommand, EditPostCommand, PostCommandReply } from '@app/contracts';
import { AccountStore } from '@app/accounts';
import { resolveAccountRefs } from '../create-post/resolve-account-refs';
import { PostCommandRunner } from '../domain/post-command-runner';
import { PostState } from '../domain/post.state';
import { QueuePlacement } from '../queue/queue-placement';
import { ReviewPolicy } from '../review/review-policy';

/** The accounts a post targets in this state (none before it exists). */
const accountIdsOf = (state: PostState): string[] => (state.exists ? state.data.accounts.map((account) => account.accountId) : []);

/**
 * Editing and deleting a draft, or a scheduled post before its time. A queued post leaves its
 * accounts' queues (its slots are freed) when it is deleted or its time or accounts are edited:
 * from then on it is scheduled by hand, or a draft.
 */
@Injectable()
export class EditPostHandler {
  constructor(
    private readonly runner: PostCommandRunner,
    private readonly accounts: AccountStore,
    private readonly queue: QueuePlacement,
    private readonly reviews: ReviewPolicy,
  ) {}

  async edit(command: EditPostCommand, requestId: string | undefined): Promise<PostCommandReply> {
    const { content, mediaUrls, altText, firstComments, thread, autoSplit, overrides, platformOptions, scheduledAt, accounts, accountIds, platforms } = command.changes;
    const retargets = accounts !== undefined || accountIds !== undefined || platforms !== undefined;
    const resolved = retargets ? resolveAccountRefs({ accounts, accountIds, platforms }, await this.accounts.list(command.workspaceId)) : undefined;
    const review = await this.reviews.reviewFor(command.workspaceId, command.actor);
    let before: string[] = [];
    const result = await this.runner.run(
      command.postId,
      { workspaceId: command.workspaceId, expectedVersion: command.expectedVersion },
      (state, now) => {
        before = accountIdsOf(state);
        return { type: 'EditPost', changes: { content, mediaUrls, altText, firstComments, thread, autoSplit, overrides, platformOptions, scheduledAt, accounts: resolved }, review, now };
      },
      requestId,
    );
    const position = scheduledAt !== undefined || retargets ? await this.queue.release(command.postId, before, requestId, result.position) : result.position;
    return { postId: command.postId, position: position!, replayed: false };
  }

  async delete(command: DeletePostCommand, requestId: string | undefined): Promise<PostCommandReply> {
    let before: string[] = [];
    const result = await this.runner.run(
      command.postId,
      { workspaceId: command.workspaceId, expectedVersion: command.expectedVersion },
      (state, now) => {
        before = accountIdsOf(state);
        return { type: 'DeletePost', now };
      },
      requestId,
    );
    const position = await this.queue.release(command.postId, before, requestId, result.position);
    return { postId: command.postId, position: position!, replayed: false };
  }
}

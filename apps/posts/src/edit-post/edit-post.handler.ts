import { Injectable } from '@nestjs/common';
import { DeletePostCommand, EditPostCommand, PostCommandReply } from '@app/contracts';
import { AccountStore } from '@app/accounts';
import { resolveAccountRefs } from '../create-post/resolve-account-refs';
import { PostCommandRunner } from '../domain/post-command-runner';
import { ReviewPolicy } from '../review/review-policy';

/** Editing and deleting a draft, or a scheduled post before its time. */
@Injectable()
export class EditPostHandler {
  constructor(
    private readonly runner: PostCommandRunner,
    private readonly accounts: AccountStore,
    private readonly reviews: ReviewPolicy,
  ) {}

  async edit(command: EditPostCommand, requestId: string | undefined): Promise<PostCommandReply> {
    const { content, mediaUrls, altText, firstComments, thread, autoSplit, overrides, platformOptions, scheduledAt, accounts, accountIds, platforms } = command.changes;
    const retargets = accounts !== undefined || accountIds !== undefined || platforms !== undefined;
    const resolved = retargets ? resolveAccountRefs({ accounts, accountIds, platforms }, await this.accounts.list(command.workspaceId)) : undefined;
    const review = await this.reviews.reviewFor(command.workspaceId, command.actor);
    const result = await this.runner.run(
      command.postId,
      { workspaceId: command.workspaceId, expectedVersion: command.expectedVersion },
      (_state, now) => ({ type: 'EditPost', changes: { content, mediaUrls, altText, firstComments, thread, autoSplit, overrides, platformOptions, scheduledAt, accounts: resolved }, review, now }),
      requestId,
    );
    return { postId: command.postId, position: result.position!, replayed: false };
  }

  async delete(command: DeletePostCommand, requestId: string | undefined): Promise<PostCommandReply> {
    const result = await this.runner.run(
      command.postId,
      { workspaceId: command.workspaceId, expectedVersion: command.expectedVersion },
      (_state, now) => ({ type: 'DeletePost', now }),
      requestId,
    );
    return { postId: command.postId, position: result.position!, replayed: false };
  }
}

import { Injectable } from '@nestjs/common';
import { PostCommandReply, PublishPostCommand } from '@app/contracts';
import { PostCommandRunner } from '../domain/post-command-runner';
import { QueuePlacement } from '../queue/queue-placement';
import { ReviewPolicy } from '../review/review-policy';

/** Publishing an existing post: a draft or scheduled post now, or the failed accounts again. */
@Injectable()
export class PublishPostHandler {
  constructor(
    private readonly runner: PostCommandRunner,
    private readonly queue: QueuePlacement,
    private readonly reviews: ReviewPolicy,
  ) {}

  /** A queued post published ahead of its slot gives the slot back: the next queued post can take it. */
  async publish(command: PublishPostCommand, requestId: string | undefined): Promise<PostCommandReply> {
    const review = await this.reviews.reviewFor(command.workspaceId, command.actor);
    const result = await this.runner.run(command.postId, { workspaceId: command.workspaceId }, (_state, now) => ({ type: 'PublishPost', review, now }), requestId);
    const accountIds = result.state.exists ? result.state.data.accounts.map((account) => account.accountId) : [];
    const position = await this.queue.release(command.postId, accountIds, requestId, result.position);
    return { postId: command.postId, position: position!, replayed: false };
  }

  async retry(command: PublishPostCommand, requestId: string | undefined): Promise<PostCommandReply> {
    const result = await this.runner.run(command.postId, { workspaceId: command.workspaceId }, (_state, now) => ({ type: 'RetryPublish', now }), requestId);
    return { postId: command.postId, position: result.position!, replayed: false };
  }
}

import { Injectable } from '@nestjs/common';
import { PostCommandReply, ReviewPostCommand } from '@app/contracts';
import { PostCommandRunner } from '../domain/post-command-runner';

/** posts.approve and posts.reject: a reviewer's decision on a post held for review (the gateway checked the approve scope). */
@Injectable()
export class ReviewPostHandler {
  constructor(private readonly runner: PostCommandRunner) {}

  async approve(command: ReviewPostCommand, requestId: string | undefined): Promise<PostCommandReply> {
    const result = await this.runner.run(command.postId, { workspaceId: command.workspaceId }, (_state, now) => ({ type: 'ApprovePost', by: command.actor.keyId, note: command.note, now }), requestId);
    return { postId: command.postId, position: result.position!, replayed: result.events.length === 0 };
  }

  async reject(command: ReviewPostCommand, requestId: string | undefined): Promise<PostCommandReply> {
    const result = await this.runner.run(command.postId, { workspaceId: command.workspaceId }, (_state, now) => ({ type: 'RejectPost', by: command.actor.keyId, note: command.note, now }), requestId);
    return { postId: command.postId, position: result.position!, replayed: result.events.length === 0 };
  }
}

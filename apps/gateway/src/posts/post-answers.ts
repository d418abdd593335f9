import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { CreatePostResponse, DomainError, PostCommandReply } from '@app/contracts';
import { postResponse, PostViewsReader, ProjectionWaiter } from '@app/read-models';

/**
 * Turns a posts command's reply into the HTTP answer: waits until the read
 * model shows the write (read-your-writes), and while a publication runs, for
 * every account's outcome — both within publishWaitMs of the reply.
 */
@Injectable()
export class PostAnswers {
  private readonly logger = new Logger(PostAnswers.name);

  constructor(
    private readonly posts: PostViewsReader,
    @Inject(ProjectionWaiter) private readonly projection: ProjectionWaiter,
    private readonly config: AppConfig,
  ) {}

  /** Read-your-writes alone (a delete has no post to show); false if the read model is still behind. */
  async settle(reply: PostCommandReply): Promise<boolean> {
    const caughtUp = await this.projection.waitFor(reply.position, this.config.projectionWaitMs);
    if (!caughtUp) this.logger.warn(`post ${reply.postId}: read model still behind after ${this.config.projectionWaitMs} ms`);
    return caughtUp;
  }

  async answer(workspaceId: string, reply: PostCommandReply): Promise<{ publishing: boolean; body: CreatePostResponse; version: number }> {
    // One deadline for both waits: the answer comes within publishWaitMs of the command's reply, not their sum.
    const deadline = Date.now() + this.config.publishWaitMs;
    const caughtUp = await this.settle(reply);
    let post = await this.posts.get(workspaceId, reply.postId);
    if (post?.status === 'publishing') {
      const left = Math.max(0, deadline - Date.now());
      await this.projection.waitUntil(async () => (post = await this.posts.get(workspaceId, reply.postId))?.status !== 'publishing', left);
    }
    // Caught up and absent: deleted (an Idempotency-Key replay of a post deleted since).
    if (!post && caughtUp) throw new DomainError('not_found', 'no such post in this workspace');
    if (!post) throw new DomainError('service_unavailable', 'the post was recorded but cannot be read yet; GET it in a moment');
    return { publishing: post.status === 'publishing', body: postResponse(post), version: post.version };
  }
}

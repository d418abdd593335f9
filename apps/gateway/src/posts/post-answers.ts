import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { CreatePostResponse, DomainError, PostCommandReply } from '@app/contracts';
import { postResponse, PostViewsReader, ProjectionWaiter } from '@app/read-models';

/**
 * Turns a posts command's reply into the HTTP answer: waits until the read
 * model shows the write (read-your-writes), and while a publication runs, up
 * to publishWaitMs for every account's outcome — 201 with the outcome, or 202
 * while it is still publishing.
 */
@Injectable()
export class PostAnswers {
  private readonly logger = new Logger(PostAnswers.name);

  constructor(
    private readonly posts: PostViewsReader,
    @Inject(ProjectionWaiter) private readonly projection: ProjectionWaiter,
    private readonly config: AppConfig,
  ) {}

  async answer(workspaceId: string, reply: PostCommandReply): Promise<{ status: 201 | 202; body: CreatePostResponse }> {
    if (!(await this.projection.waitFor(reply.position, this.config.projectionWaitMs))) {
      this.logger.warn(`post ${reply.postId}: read model still behind after ${this.config.projectionWaitMs} ms`);
    }
    let post = await this.posts.get(workspaceId, reply.postId);
    if (post?.status === 'publishing') {
      await this.projection.waitUntil(async () => (post = await this.posts.get(workspaceId, reply.postId))?.status !== 'publishing', this.config.publishWaitMs);
    }
    if (!post) throw new DomainError('service_unavailable', 'the post was recorded but cannot be read yet; GET it in a moment');
    return { status: post.status === 'publishing' ? 202 : 201, body: postResponse(post) };
  }
}

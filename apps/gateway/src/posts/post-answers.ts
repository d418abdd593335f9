import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { CreatePostResponse, DomainError, PostCommandReply, PostDetail, PostRecordedResponse } from '@app/contracts';
import { postResponse, PostViewsReader, ProjectionWaiter } from '@app/read-models';

/**
 * What a posts write is answered with, once its command has been recorded:
 * - shown: the read model shows the write; the post as it now stands (201/200, or 202 while still publishing);
 * - recorded: the read model does not show it within the waits, or could not be read: 202 with the id
 *   and its Location. Never an error: the write happened (a publishNow goes live), and a 503 would
 *   tell the client that nothing was created, so it would send the post again.
 */
export type PostAnswer = { kind: 'shown'; publishing: boolean; body: CreatePostResponse; version: number } | { kind: 'recorded'; body: PostRecordedResponse };

/** Where a post is read: the Location of a 202. */
export const postLocation = (postId: string): string => `/api/v1/posts/${postId}`;

const recorded = (postId: string): PostAnswer => ({
  kind: 'recorded',
  body: { post: { id: postId }, note: `recorded; not readable yet: GET ${postLocation(postId)} in a moment` },
});

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

  async answer(workspaceId: string, reply: PostCommandReply): Promise<PostAnswer> {
    let shown: { caughtUp: boolean; post: PostDetail | null };
    try {
      shown = await this.read(workspaceId, reply);
    } catch (error) {
      // The write is recorded; only reading it back failed (the database lost meanwhile).
      this.logger.warn(`post ${reply.postId}: recorded, but reading it back failed: ${error instanceof Error ? error.message : String(error)}`);
      return recorded(reply.postId);
    }
    const { caughtUp, post } = shown;
    // Caught up and absent: deleted (an Idempotency-Key replay of a post deleted since).
    if (!post && caughtUp) throw new DomainError('not_found', 'no such post in this workspace');
    // Behind: what the read model holds is absent or the post before this write, never an answer to it.
    if (!post || !caughtUp) return recorded(reply.postId);
    return { kind: 'shown', publishing: post.status === 'publishing', body: postResponse(post), version: post.version };
  }

  private async read(workspaceId: string, reply: PostCommandReply): Promise<{ caughtUp: boolean; post: PostDetail | null }> {
    // One deadline for both waits: the answer comes within publishWaitMs of the command's reply, not their sum.
    const deadline = Date.now() + this.config.publishWaitMs;
    const caughtUp = await this.settle(reply);
    const readAt = this.projection.mark();
    let post = await this.posts.get(workspaceId, reply.postId);
    if (caughtUp && post?.status === 'publishing') {
      const left = Math.max(0, deadline - Date.now());
      // Read again only when the projector may have moved this post's status (not on each of its accounts' outcomes, nor on others' batches), and not at once unless it advanced since that read.
      await this.projection.waitUntil(async () => (post = await this.posts.get(workspaceId, reply.postId))?.status !== 'publishing', left, {
        viewId: reply.postId,
        checkedAt: readAt,
      });
    }
    return { caughtUp, post };
  }
}

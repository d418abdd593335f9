import { Injectable } from '@nestjs/common';

/** How long a reply just posted is remembered: far longer than the projection takes to record it. */
const REMEMBER_MS = 10 * 60_000;

/**
 * The replies this process posted and has not yet seen in the read model.
 * Between the platform's answer and the projection of CommentReplied, a poll
 * could list the reply under the post and take it for a new comment; the read
 * model's reply_ids cover every reply after that.
 */
@Injectable()
export class RecentReplies {
  private readonly replies = new Map<string, number>();

  add(platform: string, replyPlatformId: string): void {
    this.forgetOld();
    this.replies.set(`${platform}\n${replyPlatformId}`, Date.now() + REMEMBER_MS);
  }

  has(platform: string, platformCommentId: string): boolean {
    return (this.replies.get(`${platform}\n${platformCommentId}`) ?? 0) > Date.now();
  }

  private forgetOld(): void {
    const now = Date.now();
    for (const [key, until] of this.replies) if (until <= now) this.replies.delete(key);
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { classifyComment } from '@app/classification';
import { IncomingComment } from '@app/contracts';
import { PG_POOL } from '@app/database';
import { CommentCommandRunner } from '../domain/comment-command-runner';
import { commentIdOf } from '../domain/comment-id';
import { PublishedItem } from './published-items';
import { RecentReplies } from './recent-replies';

/** The handle without @, lower-cased: platforms give authors either way. */
const bare = (handle: string) => handle.replace(/^@/, '').toLowerCase();

/**
 * Stores the comments found under one published item: classified, each on its
 * own stream, once. The read model only saves work (a comment it already shows
 * is not classified again); the store's no_stream check is what guarantees once.
 * The workspace's own words (its replies, its account's comments) are not
 * comments to answer and are left out.
 */
@Injectable()
export class CommentIngestion {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly runner: CommentCommandRunner,
    private readonly recentReplies: RecentReplies,
  ) {}

  /** Returns how many comments this call stored. */
  async ingest(item: PublishedItem, comments: IncomingComment[], requestId?: string): Promise<number> {
    if (comments.length === 0) return 0;
    const known = await this.alreadyKnown(item, comments.map((c) => c.platformCommentId));
    const fresh = comments.filter(
      (c) =>
        !known.has(c.platformCommentId) &&
        !item.ownCommentIds.includes(c.platformCommentId) &&
        !this.recentReplies.has(item.platform, c.platformCommentId) &&
        bare(c.author) !== bare(item.handle),
    );
    let stored = 0;
    for (const comment of fresh) {
      const commentId = commentIdOf(item.workspaceId, item.platform, comment.platformCommentId);
      const { sentiment, tags } = classifyComment(comment.text);
      const { events } = await this.runner.run(
        commentId,
        item.workspaceId,
        (now) => ({
          type: 'ReceiveComment',
          comment: {
            commentId,
            workspaceId: item.workspaceId,
            platform: item.platform,
            platformCommentId: comment.platformCommentId,
            platformPostId: item.platformPostId,
            postId: item.postId,
            accountId: item.accountId,
            author: comment.author,
            text: comment.text,
            url: comment.url,
            postTitle: item.postTitle,
            commentedAt: validDate(comment.createdAt),
            sentiment,
            tags,
          },
          now,
        }),
        requestId,
      );
      stored += events.length;
    }
    return stored;
  }

  /**
   * Which of these platform ids the read model already has under the item: as
   * comments, or as the workspace's own replies. Only the ids asked about are
   * looked up, so a post with thousands of comments costs no more than one with few.
   */
  private async alreadyKnown(item: PublishedItem, platformCommentIds: string[]): Promise<Set<string>> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT platform_comment_id AS id FROM comment_views
        WHERE workspace_id = $1 AND platform_comment_id = ANY($3::text[]) AND platform = $2
       UNION
       SELECT unnest(reply_ids) AS id FROM comment_views
        WHERE workspace_id = $1 AND platform = $2 AND platform_post_id = $4 AND replied AND reply_ids && $3::text[]`,
      [item.workspaceId, item.platform, platformCommentIds, item.platformPostId],
    );
    return new Set(rows.map((row) => row.id));
  }
}

/** An ISO string of a date the platform gave, or null when it gave none we can read. */
function validDate(value: string | null): string | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

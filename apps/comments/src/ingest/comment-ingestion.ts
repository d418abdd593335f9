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
    const known = await this.knownUnder(item);
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

  /** Platform ids under the item the read model already has: its comments and the workspace's replies. */
  private async knownUnder(item: PublishedItem): Promise<Set<string>> {
    const { rows } = await this.pool.query<{ platform_comment_id: string; reply_ids: string[] }>(
      'SELECT platform_comment_id, reply_ids FROM comment_views WHERE workspace_id = $1 AND platform = $2 AND platform_post_id = $3',
      [item.workspaceId, item.platform, item.platformPostId],
    );
    return new Set(rows.flatMap((row) => [row.platform_comment_id, ...row.reply_ids]));
  }
}

/** An ISO string of a date the platform gave, or null when it gave none we can read. */
function validDate(value: string | null): string | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

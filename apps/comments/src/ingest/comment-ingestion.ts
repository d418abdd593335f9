import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { classifyComment } from '@app/classification';
import { AppConfig } from '@app/config';
import { commentStreamId, IncomingComment } from '@app/contracts';
import { PG_POOL } from '@app/database';
import { AppendBatcher, StreamAppend, StreamAppendOutcome, WrongExpectedRevisionError } from '@app/event-store';
import { ReceiveComment } from '../domain/comment.commands';
import { decide } from '../domain/comment.decider';
import { initialState } from '../domain/comment.state';
import { commentIdOf } from '../domain/comment-id';
import { toNewCommentEvents } from '../domain/comment-stream';
import { PublishedItem } from './published-items';
import { RecentReplies } from './recent-replies';

/** Comments classified between two yields to the event loop (a few tens of ms of CPU). */
const CLASSIFIED_PER_YIELD = 100;

/** The handle without @, lower-cased: platforms give authors either way. */
const bare = (handle: string) => handle.replace(/^@/, '').toLowerCase();

/**
 * Stores the comments found under one published item: classified one by one,
 * each on its own stream, once. The read model only saves work (a comment it
 * already shows is not classified again); the store's no_stream check is what
 * guarantees once. The workspace's own words (its replies, its account's
 * comments) are not comments to answer and are left out.
 *
 * A comment's stream is new unless the comment was stored meanwhile (a poll
 * and a webhook racing), so its receipt is decided on the empty stream and
 * appended with no_stream, without reading the stream first: when it was
 * stored meanwhile, the refusal is exactly what deciding on the stored
 * comment would give (a second ReceiveComment decides nothing). The appends
 * of all the comments at hand, and of concurrent calls (webhooks), share
 * statements (AppendBatcher).
 */
@Injectable()
export class CommentIngestion {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly appends: AppendBatcher,
    private readonly config: AppConfig,
    private readonly recentReplies: RecentReplies,
  ) {}

  /** Returns how many comments this call stored. */
  async ingest(item: PublishedItem, comments: IncomingComment[], requestId?: string): Promise<number> {
    const [stored] = await this.ingestDeliveries(item, [{ comments, requestId }]);
    return stored;
  }

  /**
   * Several deliveries under one item at once (concurrent webhooks): one
   * look-up of what is already known for all their comments, their appends
   * grouped; each comment still classified on its own and its events carrying
   * its own delivery's request id. Returns how many each delivery stored, in order.
   */
  async ingestDeliveries(item: PublishedItem, deliveries: Array<{ comments: IncomingComment[]; requestId?: string }>): Promise<number[]> {
    const all = deliveries.flatMap((delivery) => delivery.comments);
    if (all.length === 0) return deliveries.map(() => 0);
    const known = await this.alreadyKnown(item, all.map((c) => c.platformCommentId));
    const isFresh = (c: IncomingComment) =>
      !known.has(c.platformCommentId) &&
      !item.ownCommentIds.includes(c.platformCommentId) &&
      !this.recentReplies.has(item.platform, c.platformCommentId) &&
      bare(c.author) !== bare(item.handle);
    const outcomes: Array<Array<Promise<StreamAppendOutcome>>> = deliveries.map(() => []);
    let classified = 0;
    for (const [delivery, { comments, requestId }] of deliveries.entries()) {
      for (const comment of comments.filter(isFresh)) {
        const outcome = this.appends.append(this.receipt(item, comment, requestId));
        outcome.catch(() => undefined); // awaited below; a failed statement must not be an unhandled rejection while classification goes on
        outcomes[delivery].push(outcome);
        // Classification is the CPU-bound part: yielding now and then lets the receipts classified so far be written meanwhile.
        if (++classified % CLASSIFIED_PER_YIELD === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    }
    return Promise.all(outcomes.map(async (ofDelivery) => (await Promise.all(ofDelivery)).filter((outcome) => !(outcome instanceof WrongExpectedRevisionError)).length));
  }

  /** The comment classified and its receipt decided on a stream with nothing in it yet. */
  private receipt(item: PublishedItem, comment: IncomingComment, requestId: string | undefined): StreamAppend {
    const commentId = commentIdOf(item.workspaceId, item.platform, comment.platformCommentId);
    const { sentiment, tags } = classifyComment(comment.text);
    const command: ReceiveComment = {
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
        parentCommentId: comment.parentCommentId ?? null,
      },
      now: this.config.now(),
    };
    return { streamId: commentStreamId(commentId), events: toNewCommentEvents(decide(command, initialState()), item.workspaceId, requestId), expected: 'no_stream' };
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

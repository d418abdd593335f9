import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Pool } from 'pg';
import { AppConfig } from '@app/config';
import { IncomingComment, Platform, PLATFORMS } from '@app/contracts';
import { PG_POOL } from '@app/database';
import { AccountCredentials, isUnavailable } from '@app/credentials';
import { ConnectorRegistry, isWrittenBy, PlatformCallFailed, PlatformComment } from '@app/platforms';
import { PeriodicTask } from '@app/runtime';
import { CommentIngestion } from './comment-ingestion';
import { PollBackoff } from './poll-backoff';
import { PublishedItem, PublishedItems } from './published-items';

/** Items older than this are no longer polled (comments come in the first days). */
const POLL_WINDOW_MS = 30 * 24 * 60 * 60_000;
/** One poller at a time across replicas (a Postgres advisory lock): the platforms' limits are per account, not per replica. */
const POLLER_LOCK = 'comments-poller';

export function toIncoming(comment: PlatformComment): IncomingComment {
  return {
    platformCommentId: comment.platformCommentId,
    author: comment.author,
    text: comment.text,
    createdAt: comment.createdAt || null,
    url: comment.url,
    parentCommentId: comment.inReplyToCommentId,
  };
}

/**
 * Polls each platform's comments endpoint for every published item, each
 * platform on its own interval (config.commentsPollIntervalMs), and stores what
 * is new. A rate_limited answer pauses that account (PollBackoff); any other
 * failure skips the item until the next pass.
 */
@Injectable()
export class CommentsPoller implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(CommentsPoller.name);
  private readonly task: PeriodicTask;
  private readonly nextPollAt = new Map<Platform, number>();
  private readonly backoff = new PollBackoff();

  constructor(
    private readonly config: AppConfig,
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly items: PublishedItems,
    private readonly connectors: ConnectorRegistry,
    private readonly credentials: AccountCredentials,
    private readonly ingestion: CommentIngestion,
  ) {
    const shortest = Math.min(...Object.values(config.commentsPollIntervalMs));
    this.task = new PeriodicTask('comments poll', Math.max(10, shortest), () => this.pollDuePlatforms(), this.logger);
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.task.stop();
  }

  /** One pass over the platforms whose interval has come; returns the comments stored. */
  async pollDuePlatforms(): Promise<number> {
    const lock = await this.pool.connect();
    try {
      const { rows } = await lock.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [POLLER_LOCK]);
      if (!rows[0].locked) return 0;
      try {
        let stored = 0;
        for (const platform of PLATFORMS) {
          const now = Date.now();
          if ((this.nextPollAt.get(platform) ?? 0) > now) continue;
          this.nextPollAt.set(platform, now + this.config.commentsPollIntervalMs[platform]);
          stored += await this.pollPlatform(platform);
        }
        return stored;
      } finally {
        await lock.query('SELECT pg_advisory_unlock(hashtext($1))', [POLLER_LOCK]);
      }
    } finally {
      lock.release();
    }
  }

  private async pollPlatform(platform: Platform): Promise<number> {
    const items = await this.items.recent(platform, new Date(this.config.now().getTime() - POLL_WINDOW_MS));
    const byAccount = new Map<string, PublishedItem[]>();
    for (const item of items) byAccount.set(item.accountId, [...(byAccount.get(item.accountId) ?? []), item]);
    let stored = 0;
    for (const [accountId, accountItems] of byAccount) stored += await this.pollAccount(platform, accountId, accountItems);
    return stored;
  }

  private async pollAccount(platform: Platform, accountId: string, items: PublishedItem[]): Promise<number> {
    const key = `${platform}:${accountId}`;
    if (this.backoff.isPaused(key, Date.now())) return 0;
    const connector = this.connectors.get(platform);
    let stored = 0;
    for (const item of items) {
      try {
        // The account's own comments are not comments to answer: one it wrote is known by its platform id
        // (a reply whose answer was lost is not recorded yet, and a Page's reply shows the Page's name, not its handle).
        const comments = await this.credentials.run(accountId, async (account) =>
          (await connector.listComments(account, item.platformPostId)).filter((comment) => !isWrittenBy(comment, account.identity)),
        );
        // Disconnected, or waiting for its user to sign in again: nothing to read with.
        if (isUnavailable(comments)) return stored;
        stored += await this.ingestion.ingest(item, comments.map(toIncoming));
      } catch (error) {
        if (!(error instanceof PlatformCallFailed)) throw error;
        if (error.error.code === 'rate_limited') {
          const pause = this.backoff.rateLimited(key, this.config.commentsPollIntervalMs[platform], Date.now());
          this.logger.warn(`${platform} rate-limited account ${accountId}; its comments are polled again in ${Math.round(pause / 1000)} s`);
          return stored;
        }
        this.logger.warn(`${platform} comments of ${item.platformPostId} not read this pass: ${error.message}`);
      }
    }
    this.backoff.succeeded(key);
    return stored;
  }
}

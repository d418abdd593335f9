import { randomUUID } from 'node:crypto';
import { AppConfig } from '@app/config';
import { commentStreamId, IncomingComment } from '@app/contracts';
import { AppendBatcher, PostgresEventStore, RecordedEvent } from '@app/event-store';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { commentIdOf } from '../domain/comment-id';
import { CommentIngestion } from './comment-ingestion';
import { PublishedItem } from './published-items';
import { RecentReplies } from './recent-replies';

/** Shared by the ingestion int-specs: the items and comments they ingest, and ingestion on a real event store. */

/** A Facebook post of a workspace of its own, with one first comment the service posted under it. */
export const publishedItem = (): PublishedItem => ({
  workspaceId: randomUUID(),
  postId: randomUUID(),
  accountId: randomUUID(),
  handle: '@acme',
  platform: 'facebook',
  platformPostId: `page_${randomUUID()}`,
  postTitle: 'Spring collection',
  ownCommentIds: ['own-first-comment'],
});

/** A fan's comment as a poll or a webhook reads it. */
export const incomingComment = (platformCommentId: string, overrides: Partial<Omit<IncomingComment, 'platformCommentId'>> = {}): IncomingComment => ({
  platformCommentId,
  author: 'fan',
  text: 'Love it, thank you!',
  createdAt: '2026-11-23T10:00:00Z',
  url: null,
  ...overrides,
});

export interface IngestionOnTestDatabase {
  db: TestDatabase;
  ingestion: CommentIngestion;
  /** What ingestion appended for one comment under the item: its comment stream. */
  streamOf(on: PublishedItem, platformCommentId: string): Promise<RecordedEvent[]>;
}

/** CommentIngestion appending to the PostgreSQL event store of a test database of its own (drop it with `db.drop()`). */
export async function ingestionOnTestDatabase(): Promise<IngestionOnTestDatabase> {
  const db = await createTestDatabase();
  const store = new PostgresEventStore(db.pool, { databaseUrl: db.url });
  return {
    db,
    ingestion: new CommentIngestion(db.pool, new AppendBatcher(store), new AppConfig(), new RecentReplies()),
    streamOf: (on, platformCommentId) => store.readStream(commentStreamId(commentIdOf(on.workspaceId, on.platform, platformCommentId))),
  };
}

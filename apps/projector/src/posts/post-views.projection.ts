import { PoolClient } from 'pg';
import {
  AccountPublishedData,
  AccountPublishFailedData,
  FirstCommentPostedData,
  LIMITS,
  PostCreatedData,
  PostEditedData,
  PostEvent,
  PublishCompletedData,
  PublishRequestedData,
  PublishResult,
  ResolvedAccountEcho,
} from '@app/contracts';
import { RecordedEvent } from '@app/event-store';
import { ownCommentPosted, ViewTables } from '../comments/comment-views.projection';
import { applyInRevisionOrder, ApplyOutcome, outcomeOfSkip, ReadStream } from '../in-revision-order';

/** The list shows at most 500 characters of a body, then an ellipsis. */
export function contentPreview(content: string): string {
  const chars = Array.from(content);
  return chars.length > LIMITS.listContentPreviewChars ? `${chars.slice(0, LIMITS.listContentPreviewChars).join('')}…` : content;
}

/** Results keyed by account and kept in the post's account order; a new outcome replaces the account's old one. */
export function withResult(results: PublishResult[], result: PublishResult, accounts: ResolvedAccountEcho[]): PublishResult[] {
  const byAccount = new Map(results.map((r) => [r.accountId, r]));
  byAccount.set(result.accountId, result);
  return accounts.flatMap((a) => byAccount.get(a.accountId) ?? []);
}

/** The row a PostCreated starts, in post_views' column names. */
function createdRow(data: PostCreatedData, version: number) {
  return {
    id: data.postId,
    workspace_id: data.workspaceId,
    content: data.content,
    content_preview: contentPreview(data.content),
    platforms: [...new Set(data.accounts.map((a) => a.platform))],
    accounts: data.accounts.map((a) => ({ accountId: a.accountId, platform: a.platform, account: a.handle })),
    media_urls: data.mediaUrls,
    alt_text: data.altText ?? [],
    first_comments: data.firstComments,
    status: data.scheduledAt ? 'scheduled' : 'draft',
    scheduled_at: data.scheduledAt,
    created_at: data.createdAt,
    version,
  };
}

/** Inserts every created post in one statement (a replay of a creation, or one delivered after its deletion, changes nothing). */
async function createViews(client: PoolClient, tables: ViewTables, created: RecordedEvent[]): Promise<void> {
  const table = tables.postViews;
  if (created.length === 0) return;
  const rows = created.map((e) => createdRow(e.data as PostCreatedData, Number(e.revision) + 1));
  await client.query(
    `INSERT INTO ${table} (id, workspace_id, content, content_preview, platforms, accounts, media_urls, alt_text, first_comments,
                           status, scheduled_at, created_at, version)
     SELECT r.* FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, workspace_id uuid, content text, content_preview text, platforms text[],
       accounts jsonb, media_urls jsonb, alt_text jsonb, first_comments jsonb, status text, scheduled_at timestamptz, created_at timestamptz, version integer)
     WHERE NOT EXISTS (SELECT 1 FROM ${tables.postDeletions} d WHERE d.id = r.id)
     ON CONFLICT (id) DO NOTHING`,
    [JSON.stringify(rows)],
  );
}

/** Reads the row the event changes; null unless the event is the next one it needs (see outcomeOfSkip). */
async function rowFor(client: PoolClient, table: string, postId: string, version: number): Promise<{ results: PublishResult[]; accounts: ResolvedAccountEcho[] } | null> {
  const { rows } = await client.query<{ results: PublishResult[]; accounts: ResolvedAccountEcho[] }>(
    `SELECT results, accounts FROM ${table} WHERE id = $1 AND version = $2 - 1 FOR UPDATE`,
    [postId, version],
  );
  return rows[0] ?? null;
}

function outcomeResult(event: { type: 'AccountPublished'; data: AccountPublishedData } | { type: 'AccountPublishFailed'; data: AccountPublishFailedData }, accounts: ResolvedAccountEcho[]): PublishResult {
  const label = accounts.find((a) => a.accountId === event.data.accountId)?.account ?? event.data.accountId;
  const base = { platform: event.data.platform, accountId: event.data.accountId, accountLabel: label };
  return event.type === 'AccountPublished'
    ? { ...base, success: true, postId: event.data.platformPostId, url: event.data.url }
    : { ...base, success: false, error: event.data.error };
}

/** The columns an edit changes; the status follows the schedule (a post without one is a draft). */
function editChange(data: PostEditedData): { sql: string; params: unknown[] } {
  const sets: string[] = [];
  const params: unknown[] = [];
  const set = (column: string, value: unknown) => sets.push(`${column} = $${params.push(value) + 2}`);
  if (data.content !== undefined) {
    set('content', data.content);
    set('content_preview', contentPreview(data.content));
  }
  if (data.mediaUrls !== undefined) set('media_urls', JSON.stringify(data.mediaUrls));
  if (data.altText !== undefined) set('alt_text', JSON.stringify(data.altText));
  if (data.firstComments !== undefined) set('first_comments', JSON.stringify(data.firstComments));
  if (data.accounts !== undefined) {
    set('accounts', JSON.stringify(data.accounts.map((a) => ({ accountId: a.accountId, platform: a.platform, account: a.handle }))));
    set('platforms', [...new Set(data.accounts.map((a) => a.platform))]);
  }
  if (data.scheduledAt !== undefined) {
    set('scheduled_at', data.scheduledAt);
    set('status', data.scheduledAt ? 'scheduled' : 'draft');
  }
  return { sql: sets.join(', '), params };
}

/**
 * Applies a batch of the feed to a post_views table (the live one or a
 * rebuild's), inside the caller's transaction. The row's version (events
 * applied) admits only the stream's next event: a replayed one changes
 * nothing, and one past a gap makes the row catch up from its stream
 * (applyInRevisionOrder), never applied out of order.
 */
export async function projectPostEvents(client: PoolClient, events: RecordedEvent[], tables: ViewTables, readStream: ReadStream): Promise<void> {
  const table = tables.postViews;
  const postEvents = events.filter((e) => e.streamId.startsWith('post-'));
  // PostCreated is always its stream's first event: inserting the batch's creations first keeps every post's order.
  await createViews(client, tables, postEvents.filter((e) => e.type === 'PostCreated'));
  const apply = async (recorded: RecordedEvent): Promise<ApplyOutcome> => {
    if (recorded.type === 'PostCreated') {
      // Only a catch-up gets here: the row, inserted now or before, carries the creation (or the post is gone).
      await createViews(client, tables, [recorded]);
      return outcomeOfSkip(client, table, (recorded.data as PostCreatedData).postId, recorded.revision);
    }
    const outcome = await projectChange(client, recorded, tables);
    if (recorded.type === 'FirstCommentPosted') {
      const data = recorded.data as FirstCommentPostedData;
      await ownCommentPosted(client, tables, data.postId, data.platformCommentId);
    }
    return outcome;
  };
  await applyInRevisionOrder(postEvents.filter((e) => e.type !== 'PostCreated'), apply, readStream);
}

/** One event after a post's creation, applied only when it is the row's next one. */
async function projectChange(client: PoolClient, recorded: RecordedEvent, tables: ViewTables): Promise<ApplyOutcome> {
  const table = tables.postViews;
  const event = { type: recorded.type, data: recorded.data } as Exclude<PostEvent, { type: 'PostCreated' }>;
  const version = Number(recorded.revision) + 1;
  const postId = event.data.postId;
  if (event.type === 'PostDeleted') {
    // The stream's last event: whatever the row missed no longer matters, and its creation can no longer bring it back.
    await client.query(`INSERT INTO ${tables.postDeletions} (id) VALUES ($1) ON CONFLICT (id) DO NOTHING`, [postId]);
    await client.query(`DELETE FROM ${table} WHERE id = $1`, [postId]);
    return 'applied';
  }
  let change: { sql: string; params: unknown[] } | null = null;
  switch (event.type) {
    case 'PublishRequested': {
      const row = await rowFor(client, table, postId, version);
      if (!row) return outcomeOfSkip(client, table, postId, recorded.revision);
      const retried = new Set((event.data as PublishRequestedData).accounts.map((a) => a.accountId));
      change = {
        sql: `status = 'publishing', error_message = NULL, results = $3, publishing_since = $4`,
        params: [JSON.stringify(row.results.filter((r) => !retried.has(r.accountId))), (event.data as PublishRequestedData).requestedAt],
      };
      break;
    }
    case 'AccountPublished':
    case 'AccountPublishFailed': {
      const row = await rowFor(client, table, postId, version);
      if (!row) return outcomeOfSkip(client, table, postId, recorded.revision);
      change = { sql: 'results = $3', params: [JSON.stringify(withResult(row.results, outcomeResult(event, row.accounts), row.accounts))] };
      break;
    }
    case 'PublishCompleted': {
      const data: PublishCompletedData = event.data;
      change = { sql: 'status = $3, published_at = $4, error_message = $5', params: [data.status, data.publishedAt, data.errorMessage] };
      break;
    }
    case 'PostEdited':
      change = editChange(event.data);
      break;
    case 'ScheduledPostExpired':
      change = { sql: `status = 'failed', error_message = $3`, params: [event.data.error.message] };
      break;
    case 'FirstCommentPosted':
      change = { sql: 'own_comment_ids = array_append(own_comment_ids, $3)', params: [event.data.platformCommentId] };
      break;
    default:
      break; // events that change nothing the view shows: only the version moves
  }
  // Only the changes that build on the row read it first; the others are one statement, skipped by the version unless next.
  const updated = await client.query(`UPDATE ${table} SET version = $2${change ? `, ${change.sql}` : ''} WHERE id = $1 AND version = $2 - 1`, [postId, version, ...(change?.params ?? [])]);
  return updated.rowCount === 1 ? 'applied' : outcomeOfSkip(client, table, postId, recorded.revision);
}

import { Pool, PoolClient } from 'pg';
import {
  AccountPublishedData,
  AccountPublishFailedData,
  FirstCommentResult,
  LIMITS,
  PostCreatedData,
  PostEditedData,
  PostEvent,
  PostEventType,
  PlatformOptions,
  PostOverrides,
  PublishCompletedData,
  PublishRequestedData,
  PublishResult,
  ResolvedAccountEcho,
  ThreadPart,
  ThreadPartResult,
  PostApproval,
} from '@app/contracts';
import type { Statement } from '@app/database';
import { RecordedEvent } from '@app/event-store';
import { applyInRevisionOrder, ApplyOutcome, ReadStream, skipReason } from '../in-revision-order';
import { Tables } from '../read-model';
import { PostRowsCache } from './post-rows-cache';

/** The post_views read model's tables: its rows, and the ids of the deleted posts (a creation delivered after its deletion stays deleted). */
export type PostViewsTables = Tables<'postViews' | 'postDeletions'>;

/** Where the rows are read: a transaction's client, or the pool (the one-statement write reads outside one). */
type Queryable = Pool | PoolClient;

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

/**
 * The account's recorded items (thread parts, first comments) with `item` in its place, in index
 * order (a part posted again after a resume replaces its failure).
 */
function withIndexed<T extends { index: number }>(results: Record<string, T[]>, accountId: string, item: T): Record<string, T[]> {
  const items = (results[accountId] ?? []).filter((p) => p.index !== item.index);
  return { ...results, [accountId]: [...items, item].sort((a, b) => a.index - b.index) };
}

/** `{url}` when the event carries one (events recorded before urls were kept do not). */
const urlOf = (data: { url?: string }) => (data.url === undefined ? {} : { url: data.url });

/** A post_views row as a batch folds it in memory, in the table's column names. */
export interface PostRow {
  id: string;
  workspace_id: string;
  content: string;
  content_preview: string;
  platforms: string[];
  accounts: ResolvedAccountEcho[];
  media_urls: string[];
  alt_text: unknown[];
  first_comments: string[];
  thread: ThreadPart[];
  auto_split: boolean;
  /** Per account id, its recorded thread parts in index order. */
  thread_results: Record<string, ThreadPartResult[]>;
  /** Per account id, its recorded first comments in index order. */
  first_comment_results: Record<string, FirstCommentResult[]>;
  /** As the events hold them ({} for none): overrides keyed by platform id or account id, options by platform id. */
  overrides: PostOverrides;
  platform_options: PlatformOptions;
  status: string;
  scheduled_at: string | Date | null;
  published_at: string | Date | null;
  results: PublishResult[];
  error_message: string | null;
  created_at: string | Date;
  version: number;
  publishing_since: string | Date | null;
  own_comment_ids: string[];
  /** Null until the post is held for review. */
  approval: PostApproval | null;
}

/** Every column, with its type for jsonb_to_recordset: a folded row is written whole. */
const POST_COLUMNS: Array<[keyof PostRow, string]> = [
  ['id', 'uuid'], ['workspace_id', 'uuid'], ['content', 'text'], ['content_preview', 'text'], ['platforms', 'text[]'], ['accounts', 'jsonb'],
  ['media_urls', 'jsonb'], ['alt_text', 'jsonb'], ['first_comments', 'jsonb'], ['thread', 'jsonb'], ['auto_split', 'boolean'], ['thread_results', 'jsonb'], ['first_comment_results', 'jsonb'], ['overrides', 'jsonb'], ['platform_options', 'jsonb'], ['status', 'text'], ['scheduled_at', 'timestamptz'],
  ['published_at', 'timestamptz'], ['results', 'jsonb'], ['error_message', 'text'], ['created_at', 'timestamptz'], ['version', 'integer'],
  ['publishing_since', 'timestamptz'], ['own_comment_ids', 'text[]'], ['approval', 'jsonb'],
];
const COLUMN_NAMES = POST_COLUMNS.map(([name]) => name).join(', ');

/** The row a PostCreated starts. */
function createdRow(data: PostCreatedData, version: number): PostRow {
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
    thread: data.thread ?? [],
    auto_split: data.autoSplit ?? false,
    thread_results: {},
    first_comment_results: {},
    overrides: data.overrides ?? {},
    platform_options: data.platformOptions ?? {},
    status: data.scheduledAt ? 'scheduled' : 'draft',
    scheduled_at: data.scheduledAt,
    published_at: null,
    results: [],
    error_message: null,
    created_at: data.createdAt,
    version,
    publishing_since: null,
    own_comment_ids: [],
    approval: null,
  };
}

function outcomeResult(event: { type: 'AccountPublished'; data: AccountPublishedData } | { type: 'AccountPublishFailed'; data: AccountPublishFailedData }, accounts: ResolvedAccountEcho[]): PublishResult {
  const label = accounts.find((a) => a.accountId === event.data.accountId)?.account ?? event.data.accountId;
  const base = { platform: event.data.platform, accountId: event.data.accountId, accountLabel: label };
  return event.type === 'AccountPublished'
    ? { ...base, success: true, postId: event.data.platformPostId, url: event.data.url }
    : { ...base, success: false, error: event.data.error };
}

/** What an edit changes; the status follows the schedule (a post without one is a draft). */
function applyEdit(row: PostRow, data: PostEditedData): void {
  if (data.content !== undefined) {
    row.content = data.content;
    row.content_preview = contentPreview(data.content);
  }
  if (data.mediaUrls !== undefined) row.media_urls = data.mediaUrls;
  if (data.altText !== undefined) row.alt_text = data.altText;
  if (data.firstComments !== undefined) row.first_comments = data.firstComments;
  if (data.thread !== undefined) row.thread = data.thread;
  if (data.autoSplit !== undefined) row.auto_split = data.autoSplit;
  if (data.overrides !== undefined) row.overrides = data.overrides;
  if (data.platformOptions !== undefined) row.platform_options = data.platformOptions;
  if (data.accounts !== undefined) {
    row.accounts = data.accounts.map((a) => ({ accountId: a.accountId, platform: a.platform, account: a.handle }));
    row.platforms = [...new Set(data.accounts.map((a) => a.platform))];
  }
  if (data.scheduledAt !== undefined) {
    row.scheduled_at = data.scheduledAt;
    row.status = data.scheduledAt ? 'scheduled' : 'draft';
  }
}

/** One event after a post's creation, on its row (the row's next event: the version is checked before). */
function applyChange(row: PostRow, event: Exclude<PostEvent, { type: 'PostCreated' | 'PostDeleted' }>): void {
  switch (event.type) {
    case 'PublishRequested': {
      const retried = new Set((event.data as PublishRequestedData).accounts.map((a) => a.accountId));
      row.status = 'publishing';
      row.error_message = null;
      row.results = row.results.filter((r) => !retried.has(r.accountId));
      row.publishing_since = event.data.requestedAt;
      row.thread_results = Object.fromEntries(
        Object.entries(row.thread_results)
          .filter(([accountId]) => !retried.has(accountId))
          // A resumed thread posts its failed part again: only the posted ones stand.
          .map(([accountId, parts]) => [accountId, parts.filter((part) => part.status === 'posted')]),
      );
      // A published-again account posts its first comments again; a resumed thread's account keeps them.
      row.first_comment_results = Object.fromEntries(Object.entries(row.first_comment_results).filter(([accountId]) => !retried.has(accountId)));
      break;
    }
    case 'AccountPublished':
    case 'AccountPublishFailed':
      row.results = withResult(row.results, outcomeResult(event, row.accounts), row.accounts);
      break;
    case 'PublishCompleted': {
      const data: PublishCompletedData = event.data;
      row.status = data.status;
      row.published_at = data.publishedAt;
      row.error_message = data.errorMessage;
      break;
    }
    case 'PostEdited':
      applyEdit(row, event.data);
      break;
    case 'ScheduledPostExpired':
      row.status = 'failed';
      row.error_message = event.data.error.message;
      break;
    case 'PostApprovalRequested':
      row.approval = { state: 'pending', by: event.data.requestedBy, at: event.data.requestedAt, note: null };
      break;
    case 'PostApproved':
      row.approval = { state: 'approved', by: event.data.approvedBy, at: event.data.approvedAt, note: event.data.note };
      break;
    case 'PostRejected':
      row.approval = { state: 'rejected', by: event.data.rejectedBy, at: event.data.rejectedAt, note: event.data.note };
      break;
    case 'FirstCommentPosted':
      row.own_comment_ids = [...row.own_comment_ids, event.data.platformCommentId];
      row.first_comment_results = withIndexed(row.first_comment_results, event.data.accountId, {
        index: event.data.index,
        status: 'posted',
        platformCommentId: event.data.platformCommentId,
        ...urlOf(event.data),
      });
      break;
    case 'FirstCommentFailed':
      row.first_comment_results = withIndexed(row.first_comment_results, event.data.accountId, { index: event.data.index, status: 'failed', error: event.data.error });
      break;
    case 'ThreadPartPosted':
      // A thread part is the workspace's own reply: comment ingestion leaves it out, as it does first comments.
      row.own_comment_ids = [...row.own_comment_ids, event.data.platformPostId];
      row.thread_results = withIndexed(row.thread_results, event.data.accountId, { index: event.data.index, status: 'posted', platformPostId: event.data.platformPostId, ...urlOf(event.data) });
      break;
    case 'ThreadPartFailed':
      row.thread_results = withIndexed(row.thread_results, event.data.accountId, { index: event.data.index, status: 'failed', error: event.data.error });
      break;
    default:
      break; // events that change nothing the view shows: only the version moves
  }
}

/**
 * A batch's post rows folded in memory: the rows its streams touch are read
 * once (locked), every event is applied to them under the same version rule
 * as one UPDATE per event would be, and each changed row is written once.
 */
class PostViewsFold {
  /** The rows of the batch's posts as they stand, by post id (absent: no row). */
  private readonly rows = new Map<string, PostRow>();
  private readonly deleted = new Set<string>();
  private readonly changed = new Set<string>();
  private readonly newlyDeleted = new Set<string>();

  private constructor(private readonly tables: PostViewsTables) {}

  /**
   * The batch's rows and deletions, in one round trip: a row is never both (a deletion removes it).
   * `lock`: inside the caller's transaction, the rows stay locked until it ends; outside one (the
   * one-statement write, which guards each row by its version instead) a lock would only cost a write.
   */
  static async load(client: Queryable, tables: PostViewsTables, postIds: string[], lock: boolean, cache: PostRowsCache<PostRow> | null): Promise<PostViewsFold> {
    const fold = new PostViewsFold(tables);
    // Locked rows are read from the table: the caller's transaction holds them.
    const { held, missing } = cache && !lock ? cache.take(postIds) : { held: [], missing: postIds };
    for (const row of held) fold.rows.set(row.id, row);
    if (missing.length === 0) return fold;
    const { rows } = await client.query<PostRow & { deleted: boolean }>(
      `WITH current AS (SELECT ${COLUMN_NAMES} FROM ${tables.postViews} WHERE id = ANY($1::uuid[])${lock ? ' FOR UPDATE' : ''})
       SELECT false AS deleted, ${COLUMN_NAMES} FROM current
       UNION ALL
       SELECT true, id, ${POST_COLUMNS.slice(1).map(([, type]) => `NULL::${type}`).join(', ')} FROM ${tables.postDeletions} WHERE id = ANY($1::uuid[])`,
      [missing],
    );
    for (const { deleted, ...row } of rows) {
      if (deleted) fold.deleted.add(row.id);
      else fold.rows.set(row.id, row);
    }
    return fold;
  }

  /** A creation starts the row, unless it has one already (a replay) or the post is deleted (its creation delivered late). */
  create(recorded: RecordedEvent): void {
    const data = recorded.data as PostCreatedData;
    if (this.rows.has(data.postId) || this.deleted.has(data.postId)) return;
    this.rows.set(data.postId, createdRow(data, Number(recorded.revision) + 1));
    this.changed.add(data.postId);
  }

  apply(recorded: RecordedEvent): ApplyOutcome {
    const event = { type: recorded.type, data: recorded.data } as PostEvent;
    const postId = event.data.postId;
    if (event.type === 'PostCreated') {
      // Only a catch-up gets here: the row, started now or before, carries the creation (or the post is gone).
      this.create(recorded);
      return skipReason(this.rows.get(postId)?.version, recorded.revision) ?? 'replayed';
    }
    if (event.type === 'PostDeleted') {
      // The stream's last event: whatever the row missed no longer matters, and its creation can no longer bring it back.
      this.deleted.add(postId);
      this.newlyDeleted.add(postId);
      this.rows.delete(postId);
      this.changed.delete(postId);
      return 'applied';
    }
    const row = this.rows.get(postId);
    const skipped = skipReason(row?.version, recorded.revision);
    if (skipped || !row) return skipped ?? 'absent';
    applyChange(row, event);
    row.version += 1;
    this.changed.add(postId);
    return 'applied';
  }

  /** Hands the cache what writes() writes (the folded rows, the fold changes them no more) and the posts deleted. */
  rememberIn(cache: PostRowsCache<PostRow>): void {
    cache.forget(this.newlyDeleted);
    cache.remember([...this.changed].map((id) => this.rows.get(id)!));
  }

  /**
   * The deletions, then the folded rows written once each. A row moves only forward (its version
   * grows with every event applied), so a write decided on rows read outside a transaction never
   * takes a row back to an older state another writer already passed.
   */
  writes(): Statement[] {
    const { postViews, postDeletions } = this.tables;
    const writes: Statement[] = [];
    if (this.newlyDeleted.size > 0) {
      const ids = [...this.newlyDeleted];
      writes.push({ text: `INSERT INTO ${postDeletions} (id) SELECT unnest($1::uuid[]) ON CONFLICT (id) DO NOTHING`, values: [ids] });
      writes.push({ text: `DELETE FROM ${postViews} WHERE id = ANY($1::uuid[])`, values: [ids] });
    }
    if (this.changed.size > 0) {
      const rows = [...this.changed].map((id) => this.rows.get(id)!);
      writes.push({
        text: `INSERT INTO ${postViews} (${COLUMN_NAMES})
         SELECT ${COLUMN_NAMES} FROM jsonb_to_recordset($1::jsonb) AS r(${POST_COLUMNS.map(([name, type]) => `${name} ${type}`).join(', ')})
         WHERE NOT EXISTS (SELECT 1 FROM ${postDeletions} d WHERE d.id = r.id)
         ON CONFLICT (id) DO UPDATE SET ${POST_COLUMNS.slice(1).map(([name]) => `${name} = EXCLUDED.${name}`).join(', ')}
         WHERE ${postViews}.version < EXCLUDED.version`,
        values: [JSON.stringify(rows)],
      });
    }
    return writes;
  }
}

/**
 * The batch's post events folded: the rows read (locked when `lock`), every event applied in each
 * stream's order. A post whose creation is in the batch is not read: its stream starts in the batch,
 * so it has a row (or a deletion) only if the batch is a replay, and the write leaves such a row
 * alone where it is as far or further (version guard) and a deleted post deleted (deletion guard).
 */
async function foldPostEvents(client: Queryable, postEvents: RecordedEvent[], tables: PostViewsTables, readStream: ReadStream, lock: boolean, cache: PostRowsCache<PostRow> | null): Promise<PostViewsFold> {
  const creations = postEvents.filter((e) => e.type === 'PostCreated');
  const createdHere = new Set(creations.map(postIdOf));
  const fold = await PostViewsFold.load(client, tables, [...postIdsIn(postEvents)].filter((id) => !createdHere.has(id)), lock, cache);
  // PostCreated is always its stream's first event: starting the batch's rows first keeps every post's order.
  for (const created of creations) fold.create(created);
  await applyInRevisionOrder(postEvents.filter((e) => e.type !== 'PostCreated'), async (event) => fold.apply(event), readStream);
  // Remembered before the write is sent: a write that fails restarts the follower, which forgets them all.
  if (cache) fold.rememberIn(cache);
  return fold;
}

const isPostEvent = (event: RecordedEvent): boolean => event.streamId.startsWith('post-');
const postIdOf = (event: RecordedEvent): string => (event.data as { postId: string }).postId;

/** The posts whose rows a batch may change: those of its post events (only a post's own stream changes its row). */
function postIdsIn(events: RecordedEvent[]): Set<string> {
  return new Set(events.filter(isPostEvent).map(postIdOf));
}

/**
 * The post events that never create or delete a row nor move its status (applyChange leaves
 * `status` as it is for each): an account's start and outcome, first comments, thread parts, the
 * review. A publication's outcome moves the status only with its PublishCompleted.
 */
const KEEPS_POST_STATUS: ReadonlySet<PostEventType> = new Set<PostEventType>([
  'AccountPublishStarted',
  'AccountPublished',
  'AccountPublishFailed',
  'FirstCommentStarted',
  'FirstCommentPosted',
  'FirstCommentFailed',
  'ThreadPartStarted',
  'ThreadPartPosted',
  'ThreadPartFailed',
  'PostApprovalRequested',
  'PostApproved',
  'PostRejected',
]);

/**
 * The posts whose status (or existence) a batch may change: a waiter for a post to leave
 * `publishing` (a publishNow's answer) is woken by these batches only, not by each of its
 * accounts' starts and outcomes before the last. An event type not known to keep the status wakes.
 */
export function postIdsWhoseStatusMayChange(events: RecordedEvent[]): Set<string> {
  return new Set(events.filter((event) => isPostEvent(event) && !KEEPS_POST_STATUS.has(event.type as PostEventType)).map(postIdOf));
}

/**
 * Applies a batch of the feed to a post_views table (the live one or a
 * rebuild's), inside the caller's transaction. The row's version (events
 * applied) admits only the stream's next event: a replayed one changes
 * nothing, and one past a gap makes the row catch up from its stream
 * (applyInRevisionOrder), never applied out of order.
 */
export async function projectPostEvents(client: PoolClient, events: RecordedEvent[], tables: PostViewsTables, readStream: ReadStream, cache: PostRowsCache<PostRow> | null = null): Promise<void> {
  const postEvents = events.filter(isPostEvent);
  if (postEvents.length === 0) return;
  const fold = await foldPostEvents(client, postEvents, tables, readStream, true, cache);
  for (const { text, values } of fold.writes()) await client.query(text, values);
}

/**
 * The same batch as projectPostEvents applies, as writes for one statement (oneStatement, with the
 * checkpoint): the rows are read outside any transaction (or taken from `cache`, the rows last
 * written), and each row written only if it is still behind the version decided here.
 */
export async function postEventWrites(client: Queryable, events: RecordedEvent[], tables: PostViewsTables, readStream: ReadStream, cache: PostRowsCache<PostRow> | null = null): Promise<Statement[]> {
  const postEvents = events.filter(isPostEvent);
  if (postEvents.length === 0) return [];
  return (await foldPostEvents(client, postEvents, tables, readStream, false, cache)).writes();
}

import { PoolClient } from 'pg';
import { ItemMetrics, ItemMetricsCollectionFailedData, ItemMetricsObservedData, MetricsCollectionError, POST_SUMMARY_METRICS, PostMetricsEvent } from '@app/contracts';
import { RecordedEvent } from '@app/event-store';
import { applyInRevisionOrder, ApplyOutcome, ReadStream, skipReason } from '../in-revision-order';
import { Tables } from '../read-model';

/** The post_metrics read model's tables: one row per post stream (with the summary), each item's latest numbers, every observation. */
export type PostMetricsTables = Tables<'postMetrics' | 'items' | 'observations'>;

const STREAM_PREFIX = 'postmetric-';

interface PostRow {
  id: string;
  workspace_id: string;
  likes: number | null;
  comments: number | null;
  shares: number | null;
  impressions: number | null;
  collected_at: string | null;
  version: number;
}

interface ItemRow {
  post_id: string;
  account_id: string;
  workspace_id: string;
  platform: string;
  platform_post_id: string;
  published_at: string;
  metrics: ItemMetrics | null;
  collected_at: string | null;
  error: MetricsCollectionError | null;
}

interface ObservationRow {
  post_id: string;
  account_id: string;
  observed_at: string;
  metrics: ItemMetrics;
}

const itemKey = (postId: string, accountId: string) => `${postId}/${accountId}`;

/** A post's summary: each of the four numbers summed over its items that gave it, null when none did. */
function summarise(row: PostRow, items: ItemRow[]): void {
  for (const name of POST_SUMMARY_METRICS) {
    const given = items.map((item) => item.metrics?.[name]).filter((value): value is number => typeof value === 'number');
    row[name] = given.length > 0 ? given.reduce((a, b) => a + b, 0) : null;
  }
  const collected = items.map((item) => item.collected_at).filter((at): at is string => at !== null);
  row.collected_at = collected.length > 0 ? collected.reduce((a, b) => (new Date(a) > new Date(b) ? a : b)) : null;
}

/**
 * A batch's post_metrics rows folded in memory: the posts' rows and items read
 * once (locked), every event applied under the version rule, each changed row
 * written once; observations inserted (a replayed one is already there).
 */
class PostMetricsFold {
  private readonly posts = new Map<string, PostRow>();
  private readonly items = new Map<string, ItemRow>();
  private readonly changedPosts = new Set<string>();
  private readonly changedItems = new Set<string>();
  private readonly observations: ObservationRow[] = [];

  constructor(
    private readonly client: PoolClient,
    private readonly tables: PostMetricsTables,
  ) {}

  async load(postIds: string[]): Promise<void> {
    const fresh = postIds.filter((id) => !this.posts.has(id));
    if (fresh.length === 0) return;
    const { rows } = await this.client.query<PostRow>(`SELECT * FROM ${this.tables.postMetrics} WHERE id = ANY($1::uuid[]) FOR UPDATE`, [fresh]);
    for (const row of rows) this.posts.set(row.id, { ...row, likes: num(row.likes), comments: num(row.comments), shares: num(row.shares), impressions: num(row.impressions) });
    const { rows: items } = await this.client.query<ItemRow>(
      `SELECT post_id, account_id, workspace_id, platform, platform_post_id, published_at, metrics, collected_at, error FROM ${this.tables.items} WHERE post_id = ANY($1::uuid[])`,
      [fresh],
    );
    for (const item of items) this.items.set(itemKey(item.post_id, item.account_id), { ...item, published_at: iso(item.published_at), collected_at: item.collected_at && iso(item.collected_at) });
  }

  async apply(recorded: RecordedEvent): Promise<ApplyOutcome> {
    const postId = recorded.streamId.slice(STREAM_PREFIX.length);
    await this.load([postId]);
    let row = this.posts.get(postId);
    if (!row && recorded.revision === 0n) {
      row = { id: postId, workspace_id: recorded.metadata.workspaceId, likes: null, comments: null, shares: null, impressions: null, collected_at: null, version: 0 };
      this.posts.set(postId, row);
    }
    const skipped = skipReason(row?.version, recorded.revision);
    if (skipped || !row) return skipped ?? 'absent';
    const event = { type: recorded.type, data: recorded.data } as PostMetricsEvent;
    const item = this.itemOf(row, event.data);
    if (event.type === 'ItemMetricsObserved') {
      item.metrics = event.data.metrics;
      item.collected_at = event.data.observedAt;
      item.error = null;
      this.observations.push({ post_id: postId, account_id: item.account_id, observed_at: event.data.observedAt, metrics: event.data.metrics });
    } else {
      item.error = { code: event.data.code, message: event.data.message, failedAt: event.data.failedAt };
    }
    summarise(row, [...this.items.values()].filter((i) => i.post_id === postId));
    row.version += 1;
    this.changedPosts.add(postId);
    this.changedItems.add(itemKey(postId, item.account_id));
    return 'applied';
  }

  private itemOf(row: PostRow, data: ItemMetricsObservedData | ItemMetricsCollectionFailedData): ItemRow {
    const key = itemKey(row.id, data.accountId);
    let item = this.items.get(key);
    if (!item) {
      item = {
        post_id: row.id,
        account_id: data.accountId,
        workspace_id: row.workspace_id,
        platform: data.platform,
        platform_post_id: data.platformPostId,
        // A refusal before any observation knows no publishing time; the first observation brings it.
        published_at: 'publishedAt' in data ? data.publishedAt : data.failedAt,
        metrics: null,
        collected_at: null,
        error: null,
      };
      this.items.set(key, item);
    } else if ('publishedAt' in data) {
      item.published_at = data.publishedAt;
    }
    return item;
  }

  async write(): Promise<void> {
    if (this.changedPosts.size > 0) {
      await this.client.query(
        `INSERT INTO ${this.tables.postMetrics} (id, workspace_id, likes, comments, shares, impressions, collected_at, version)
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, workspace_id uuid, likes bigint, comments bigint, shares bigint, impressions bigint, collected_at timestamptz, version integer)
         ON CONFLICT (id) DO UPDATE SET likes = EXCLUDED.likes, comments = EXCLUDED.comments, shares = EXCLUDED.shares, impressions = EXCLUDED.impressions,
           collected_at = EXCLUDED.collected_at, version = EXCLUDED.version`,
        [JSON.stringify([...this.changedPosts].map((id) => this.posts.get(id)))],
      );
    }
    if (this.changedItems.size > 0) {
      await this.client.query(
        `INSERT INTO ${this.tables.items} (post_id, account_id, workspace_id, platform, platform_post_id, published_at, metrics, collected_at, error)
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(post_id uuid, account_id uuid, workspace_id uuid, platform text, platform_post_id text,
           published_at timestamptz, metrics jsonb, collected_at timestamptz, error jsonb)
         ON CONFLICT (post_id, account_id) DO UPDATE SET platform_post_id = EXCLUDED.platform_post_id, published_at = EXCLUDED.published_at,
           metrics = EXCLUDED.metrics, collected_at = EXCLUDED.collected_at, error = EXCLUDED.error`,
        [JSON.stringify([...this.changedItems].map((key) => this.items.get(key)))],
      );
    }
    if (this.observations.length > 0) {
      await this.client.query(
        `INSERT INTO ${this.tables.observations} (post_id, account_id, observed_at, metrics)
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(post_id uuid, account_id uuid, observed_at timestamptz, metrics jsonb)
         ON CONFLICT DO NOTHING`,
        [JSON.stringify(this.observations)],
      );
    }
  }
}

/** bigint columns come back as strings. */
function num(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

function iso(value: unknown): string {
  return value instanceof Date ? value.toISOString() : String(value);
}

/**
 * Applies a batch of the feed to the post_metrics tables (live or a rebuild's),
 * inside the caller's transaction, each post stream strictly in revision order
 * (applyInRevisionOrder: one past a gap makes the post catch up from its stream).
 */
export async function projectPostMetricsEvents(client: PoolClient, events: RecordedEvent[], tables: PostMetricsTables, readStream: ReadStream): Promise<void> {
  const ours = events.filter((e) => e.streamId.startsWith(STREAM_PREFIX));
  if (ours.length === 0) return;
  const fold = new PostMetricsFold(client, tables);
  await fold.load([...new Set(ours.map((e) => e.streamId.slice(STREAM_PREFIX.length)))]);
  await applyInRevisionOrder(ours, (event) => fold.apply(event), readStream);
  await fold.write();
}

import { randomUUID } from 'node:crypto';
import { accountMetricsStreamId, AccountMetricsEvent, ItemMetrics, METRICS_EVENT_VERSION, postMetricsStreamId, PostMetricsEvent } from '@app/contracts';
import { inTransaction } from '@app/database';
import { PostgresEventStore, RecordedEvent, START } from '@app/event-store';
import { MetricsViewsReader, PostViewsReader } from '@app/read-models';
import { createTestDatabase, TestDatabase, until } from '@app/testing';
import { appendSampleStreams, SampleStreams } from '../../../../test/support/projection-streams';
import { ReadStream } from '../in-revision-order';
import { POST_VIEWS } from '../post-views/post-views.read-model';
import { ReadModel } from '../read-model';
import { verifyProjections } from '../verify/verify-projections';
import { ACCOUNT_METRICS, POST_METRICS } from './metrics.read-models';

/**
 * The analytics read models, folded from real stored events: the latest numbers per item
 * and per post, the history for the curves, refusals beside the numbers, the list's
 * summary, top posts and an account's follower curve; idempotent and in revision order.
 */
let db: TestDatabase;
let store: PostgresEventStore;
let sample: SampleStreams;
let metricEvents: RecordedEvent[];
const readStream: ReadStream = (streamId) => store.readStream(streamId);
const at = (minute: number) => new Date(Date.UTC(2026, 10, 23, 13, minute)).toISOString();
const numbers = (likes: number | null, impressions: number | null, shares: number | null = null): ItemMetrics => ({
  impressions,
  reach: null,
  likes,
  comments: 1,
  shares,
  saves: null,
  clicks: null,
  videoViews: null,
});

/** The sample post's published items (x, mastodon, bluesky, threads; linkedin failed). */
const items = () =>
  sample.events
    .filter((e) => e.type === 'AccountPublished')
    .map((e) => e.data as { accountId: string; platform: 'x' | 'mastodon'; platformPostId: string; publishedAt: string });

async function project(model: ReadModel, batches: RecordedEvent[][]): Promise<void> {
  for (const batch of batches) await inTransaction(db.pool, (client) => model.project(client, batch, model.tables, readStream));
}

async function rows(model: ReadModel): Promise<Record<string, string[]>> {
  const tables: Record<string, string[]> = {};
  for (const [role, table] of Object.entries<string>(model.tables)) tables[role] = (await db.pool.query(`SELECT * FROM ${table}`)).rows.map((r) => JSON.stringify(r)).sort();
  return tables;
}

beforeAll(async () => {
  db = await createTestDatabase();
  store = new PostgresEventStore(db.pool, { databaseUrl: db.url });
  sample = await appendSampleStreams(store);
  await project(POST_VIEWS, [sample.events]);
  const [x, mastodon] = items();
  const item = (i: typeof x) => ({ postId: sample.publishedPostId, accountId: i.accountId, platform: i.platform, platformPostId: i.platformPostId, publishedAt: i.publishedAt });
  const post: Array<PostMetricsEvent> = [
    { type: 'ItemMetricsObserved', data: { ...item(x), metrics: numbers(2, 100), raw: { like_count: 2 }, changed: ['likes', 'impressions', 'comments'], observedAt: at(5) } },
    { type: 'ItemMetricsObserved', data: { ...item(mastodon), metrics: numbers(1, null, 1), raw: { favourites_count: 1 }, changed: ['likes', 'comments', 'shares'], observedAt: at(5) } },
    { type: 'ItemMetricsObserved', data: { ...item(x), metrics: numbers(9, 400), raw: { like_count: 9 }, changed: ['likes', 'impressions'], observedAt: at(20) } },
    { type: 'ItemMetricsCollectionFailed', data: { ...item(mastodon), code: 'insufficient_platform_scope', message: 'read:statuses missing', failedAt: at(20) } },
  ];
  for (const event of post) {
    await store.append(postMetricsStreamId(sample.publishedPostId), [{ eventId: randomUUID(), type: event.type, data: event.data, metadata: { workspaceId: sample.workspaceId, version: METRICS_EVENT_VERSION } }], 'any');
  }
  for (const [i, followers] of [100, 104, 111].entries()) {
    const event: AccountMetricsEvent = { type: 'AccountMetricsObserved', data: { accountId: x.accountId, platform: 'x', followers, raw: { followers_count: followers }, observedAt: at(i * 10) } };
    await store.append(accountMetricsStreamId(x.accountId), [{ eventId: randomUUID(), type: event.type, data: event.data, metadata: { workspaceId: sample.workspaceId, version: METRICS_EVENT_VERSION } }], 'any');
  }
  await until(async () => {
    metricEvents = (await store.readAll(START, 10_000)).filter((e) => e.metadata.workspaceId === sample.workspaceId && /^(post|account)metric-/.test(e.streamId));
    return metricEvents.length === 7;
  }, 15_000);
  await project(POST_METRICS, metricEvents.map((e) => [e]));
  await project(ACCOUNT_METRICS, metricEvents.map((e) => [e]));
});
afterAll(() => db?.drop());

describe('post_metrics', () => {
  it("shows each account's latest numbers, the refusal beside the last ones, and every observation with history", async () => {
    const view = await new MetricsViewsReader(db.pool).postMetrics(sample.workspaceId, sample.publishedPostId, true);
    const [x, mastodon] = items();
    expect(view!.summary).toEqual({ likes: 10, comments: 2, shares: 1, impressions: 400 });
    const byAccount = new Map(view!.accounts.map((a) => [a.accountId, a]));
    // Every published account is listed; the two never collected have no numbers yet (null, not 0).
    expect(view!.accounts).toHaveLength(4);
    expect(byAccount.get(x.accountId)).toMatchObject({ platform: 'x', metrics: numbers(9, 400), collectedAt: at(20), error: null });
    expect(byAccount.get(x.accountId)!.history!.map((p) => p.metrics.likes)).toEqual([2, 9]);
    expect(byAccount.get(mastodon.accountId)).toMatchObject({ metrics: numbers(1, null, 1), collectedAt: at(5), error: { code: 'insufficient_platform_scope', failedAt: at(20) } });
    expect(view!.accounts.filter((a) => a.metrics === null)).toHaveLength(2);
  });

  it('leaves history out unless asked, and knows no post of another workspace', async () => {
    const reader = new MetricsViewsReader(db.pool);
    expect((await reader.postMetrics(sample.workspaceId, sample.publishedPostId, false))!.accounts[0]).not.toHaveProperty('history');
    expect(await reader.postMetrics(randomUUID(), sample.publishedPostId, false)).toBeNull();
  });

  it('gives the posts list its summary, null for a post never collected', async () => {
    const page = await new PostViewsReader(db.pool).list(sample.workspaceId, { limit: 10 });
    expect(page.items.find((p) => p.id === sample.publishedPostId)!.metrics).toEqual({ likes: 10, comments: 2, shares: 1, impressions: 400 });
  });

  it('ranks the items by the metric asked, within the filters', async () => {
    const reader = new MetricsViewsReader(db.pool);
    const [x, mastodon] = items();
    const top = await reader.topPosts(sample.workspaceId, { sort: 'likes', limit: 10 });
    expect(top.items.map((i) => i.accountId)).toEqual([x.accountId, mastodon.accountId]);
    // Items without the number (mastodon gives no impressions) come last.
    expect((await reader.topPosts(sample.workspaceId, { sort: 'shares', limit: 10 })).items.map((i) => i.accountId)).toEqual([mastodon.accountId, x.accountId]);
    expect((await reader.topPosts(sample.workspaceId, { sort: 'likes', limit: 10, platform: 'mastodon' })).items.map((i) => i.accountId)).toEqual([mastodon.accountId]);
    expect((await reader.topPosts(sample.workspaceId, { sort: 'likes', limit: 10, from: new Date('2030-01-01') })).items).toEqual([]);
  });

  it('is idempotent: the same events again, in one batch, change no row', async () => {
    const before = await rows(POST_METRICS);
    await project(POST_METRICS, [metricEvents]);
    expect(await rows(POST_METRICS)).toEqual(before);
  });

  it('applies a stream in revision order: a later event delivered first makes the post catch up from its stream', async () => {
    const before = await rows(POST_METRICS);
    for (const table of Object.values(POST_METRICS.tables)) await db.pool.query(`DELETE FROM ${table}`);
    const postEvents = metricEvents.filter((e) => e.streamId.startsWith('postmetric-'));
    await project(POST_METRICS, [[postEvents[2]], postEvents]);
    expect(await rows(POST_METRICS)).toEqual(before);
  });
});

describe('npm run verify-projections', () => {
  it('finds the analytics rows equal to a fresh fold of their streams, and names a damaged column', async () => {
    const reportOf = async () => (await verifyProjections({ pool: db.pool, databaseUrl: db.url })).views.filter((v) => v.view.endsWith('_metrics'));
    expect(await reportOf()).toEqual([
      { view: 'post_metrics', rowsChecked: 1, differing: [], missing: [], withoutStream: [] },
      { view: 'account_metrics', rowsChecked: 1, differing: [], missing: [], withoutStream: [] },
    ]);
    await db.pool.query('UPDATE post_metrics SET likes = 999');
    expect((await reportOf())[0].differing).toEqual([{ id: sample.publishedPostId, columns: ['likes'] }]);
    await db.pool.query('UPDATE post_metrics SET likes = 10');
  });
});

describe('account_metrics', () => {
  it("draws the account's follower curve and its change over the range, with its items' totals", async () => {
    const [x] = items();
    const reader = new MetricsViewsReader(db.pool);
    const view = await reader.accountAnalytics(sample.workspaceId, x.accountId, {});
    // The sample's accounts are not in the accounts table: the account is unknown to the reader.
    expect(view).toBeNull();
    await db.pool.query(`INSERT INTO workspaces (id, name) VALUES ($1, 'w') ON CONFLICT DO NOTHING`, [sample.workspaceId]);
    await db.pool.query(`INSERT INTO accounts (id, workspace_id, platform, handle, display_name, status) VALUES ($1, $2, 'x', '@acme-x', 'Acme', 'connected')`, [x.accountId, sample.workspaceId]);
    const known = await reader.accountAnalytics(sample.workspaceId, x.accountId, {});
    expect(known).toMatchObject({ platform: 'x', followers: 111, collectedAt: at(20), followersChange: 11 });
    expect(known!.history.map((p) => p.followers)).toEqual([100, 104, 111]);
    expect(known!.totals).toMatchObject({ posts: 1, likes: 9, impressions: 400, reach: null });
    const ranged = await reader.accountAnalytics(sample.workspaceId, x.accountId, { from: new Date(at(5)), to: new Date(at(15)) });
    expect(ranged).toMatchObject({ followersChange: null, history: [{ observedAt: at(10), followers: 104 }] });
  });

  it('is idempotent', async () => {
    const before = await rows(ACCOUNT_METRICS);
    await project(ACCOUNT_METRICS, [metricEvents]);
    expect(await rows(ACCOUNT_METRICS)).toEqual(before);
  });
});

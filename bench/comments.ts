import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'pg';
import { classifyComment } from '@app/classification';
import { CommentSentiment, Platform } from '@app/contracts';
import { CommentListFilter, CommentViewsReader } from '@app/read-models';
import { metaSignature } from '../apps/gateway/src/comments/meta-webhook';
import { startPlatformSandbox } from '@app/platform-sandbox';
import { connectSandboxAccount } from '../tools/local/connect-sandbox-account';
import { createBenchDatabase, startService } from './bench-environment';
import { FeedComment, feedWebhook } from './meta-webhook';
import { reportFigures } from './report';
import { formatRow, measure, Measured } from './stats';
import { runScript } from './run-script';

/**
 * npm run bench:comments: comments ingested per second end to end (sandbox →
 * poll or signed Meta webhook → classification → event store → projector →
 * comment_views), against baselines measured in the same run (classification
 * alone, plain single-row inserts); webhooks both one comment a delivery and
 * CHANGES_PER_DELIVERY a delivery (as Meta batches them); then GET
 * /api/v1/comments latency with 1,000,000 comments in the read model, each
 * filter's plan checked for an index.
 */
const POLLED_COMMENTS = Number(process.env.BENCH_COMMENTS ?? 5000);
const WEBHOOK_COMMENTS = Number(process.env.BENCH_WEBHOOK_COMMENTS ?? 2000);
const WEBHOOK_CONCURRENCY = 16;
/** Meta batches changes (up to 1000 a delivery): the same comments again in deliveries of this many, a few at a time. */
const BATCHED_WEBHOOK_COMMENTS = Number(process.env.BENCH_BATCHED_WEBHOOK_COMMENTS ?? 5000);
const CHANGES_PER_DELIVERY = 50;
const BATCHED_CONCURRENCY = 4;
const LIST_ROWS = Number(process.env.BENCH_LIST_ROWS ?? 1_000_000);
const LIST_REQUESTS = Number(process.env.BENCH_LIST_REQUESTS ?? 1000);
const LIST_CONCURRENCY = 32;
const POLL_INTERVAL_MS = 200;
const INGEST_TIMEOUT_MS = 180_000;
const META_APP_SECRET = 'bench-meta-app-secret';
/** The Facebook post the webhook comments go under (none are added to it on the platform, so polls find nothing new there). */
const WEBHOOK_POST = 'Webhook target post';
const POLLED_PLATFORMS: Platform[] = ['x', 'facebook', 'linkedin', 'bluesky', 'mastodon'];

/** Shares of the seeded read model, roughly what a consumer brand sees. */
const PLATFORM_SHARES: Array<[Platform, number]> = [
  ['instagram', 0.28], ['facebook', 0.22], ['tiktok', 0.14], ['youtube', 0.1], ['x', 0.08],
  ['linkedin', 0.06], ['threads', 0.05], ['bluesky', 0.03], ['mastodon', 0.02], ['pinterest', 0.02],
];
const SENTIMENT_SHARES: Array<[CommentSentiment, number]> = [['positive', 0.45], ['neutral', 0.35], ['negative', 0.2]];

/** The list filters measured: each documented one alone, a common combination and a rare one. */
const LIST_CASES: Array<{ label: string; query: string; filter: Omit<CommentListFilter, 'limit'> }> = [
  { label: 'no filter', query: '', filter: { unreplied: false } },
  { label: 'platform=linkedin', query: 'platform=linkedin', filter: { platform: 'linkedin', unreplied: false } },
  { label: 'sentiment=negative', query: 'sentiment=negative', filter: { sentiment: 'negative', unreplied: false } },
  { label: 'unreplied=1', query: 'unreplied=1', filter: { unreplied: true } },
  { label: 'instagram+negative+unreplied', query: 'platform=instagram&sentiment=negative&unreplied=1', filter: { platform: 'instagram', sentiment: 'negative', unreplied: true } },
  { label: 'pinterest+negative+unreplied', query: 'platform=pinterest&sentiment=negative&unreplied=1', filter: { platform: 'pinterest', sentiment: 'negative', unreplied: true } },
];
const LIST_LIMIT = 20;

/** Real comment texts (the classifier's labelled set), so classification costs what it costs on real traffic. */
function commentTexts(): string[] {
  const path = join(__dirname, '..', '..', 'libs', 'classification', 'fixtures', 'labelled-comments.json');
  const { dev, test } = JSON.parse(readFileSync(path, 'utf8')) as Record<'dev' | 'test', Array<{ text: string }>>;
  return [...dev, ...test].map((c) => c.text);
}

/** A SQL CASE picking a value by its share, from a uniform random column. */
function pickByShare(random: string, shares: Array<[string, number]>): string {
  let cumulative = 0;
  const branches = shares.slice(0, -1).map(([value, share]) => `WHEN ${random} < ${(cumulative += share).toFixed(4)} THEN '${value}'`);
  return `CASE ${branches.join(' ')} ELSE '${shares[shares.length - 1][0]}' END`;
}

async function countComments(pool: Pool, workspaceId: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM comment_views WHERE workspace_id = $1', [workspaceId]);
  return rows[0].n;
}

/** Seconds from `startedAt` until the read model holds `expected` comments of the workspace. */
async function secondsUntilListed(pool: Pool, workspaceId: string, expected: number, startedAt: bigint): Promise<number> {
  for (;;) {
    const seen = await countComments(pool, workspaceId);
    const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
    if (seen >= expected) return seconds;
    if (seconds * 1000 > INGEST_TIMEOUT_MS) throw new Error(`only ${seen} of ${expected} comments listed after ${seconds.toFixed(0)} s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** An end-to-end ingestion figure: a count over a wall-clock time, no per-item latency. */
interface Throughput {
  name: string;
  count: number;
  seconds: number;
  perSecond: number;
}

const throughput = (name: string, count: number, seconds: number): Throughput => ({ name, count, seconds, perSecond: count / seconds });
const formatThroughput = (t: Throughput) => `${t.name.padEnd(44)} ${String(t.count).padStart(7)} ${t.perSecond.toFixed(0).padStart(9)}/s   in ${t.seconds.toFixed(1)} s`;

/** The exact SQL and parameters the gateway's reader runs for a filter (captured, not copied). */
async function readerQuery(workspaceId: string, filter: CommentListFilter): Promise<{ text: string; values: unknown[] }> {
  let captured: { text: string; values: unknown[] } | null = null;
  const capturing = { query: async (text: string, values: unknown[]) => ((captured = { text, values }), { rows: [] }) };
  await new CommentViewsReader(capturing as unknown as Pool).list(workspaceId, filter);
  return captured!;
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** The plan's nodes from the top, e.g. "Limit → Index Scan using comment_views_newest". */
function planPath(node: PlanNode): string[] {
  const label = node['Index Name'] ? `${node['Node Type']} using ${node['Index Name']}` : node['Node Type'];
  return [label, ...(node.Plans?.length === 1 ? planPath(node.Plans[0]) : node.Plans ? [`(${node.Plans.length} children)`] : [])];
}

async function explainList(pool: Pool, workspaceId: string, filter: CommentListFilter): Promise<{ path: string[]; usesIndex: boolean }> {
  const { text, values } = await readerQuery(workspaceId, filter);
  const { rows } = await pool.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`EXPLAIN (FORMAT JSON) ${text}`, values);
  const path = planPath(rows[0]['QUERY PLAN'][0].Plan);
  return { path, usesIndex: path.some((node) => node.startsWith('Index')) && !path.some((node) => node === 'Sort' || node === 'Seq Scan') };
}

/** `rows` comments in the workspace's read model, newest a second ago, spread over about a year. */
async function seedCommentViews(pool: Pool, workspaceId: string, rows: number, texts: string[]): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT setseed(0.42)');
    // Older comments are more often answered: about half of the newest, nine in ten of the oldest.
    await client.query(
      `INSERT INTO comment_views (id, workspace_id, platform, platform_comment_id, platform_post_id, post_id, account_id, author, text, sentiment, tags, replied, post_title, url, commented_at, version)
       SELECT gen_random_uuid(), $1, ${pickByShare('rp', PLATFORM_SHARES)}, 'seed-' || g, 'seed-item-' || (g / 200), $4, $4, 'fan' || (g % 20000),
              ($3::text[])[1 + g % cardinality($3::text[])], ${pickByShare('rs', SENTIMENT_SHARES)}, '{}', rr < 0.5 + 0.4 * g / $2::float, 'Seeded post', NULL,
              now() - make_interval(secs => g * 30), 1
       FROM (SELECT g, random() AS rp, random() AS rs, random() AS rr FROM generate_series(1, $2::int) AS g) AS s`,
      [workspaceId, rows, texts, randomUUID()],
    );
    await client.query('ANALYZE comment_views');
  } finally {
    client.release();
  }
}

async function main(): Promise<void> {
  const texts = commentTexts();
  const sandbox = await startPlatformSandbox();
  const db = await createBenchDatabase(WEBHOOK_CONCURRENCY);
  const results: Measured[] = [];
  const endToEnd: Throughput[] = [];
  const say = (line: string) => process.stdout.write(`${line}\n`);
  let service: Awaited<ReturnType<typeof startService>> | null = null;
  try {
    const workspace = await db.store.createWorkspace('comments bench');
    const { key } = await db.store.createKey(workspace.id, ['read', 'write', 'publish']);
    for (const platform of POLLED_PLATFORMS) {
      await connectSandboxAccount(db.accounts, sandbox, { workspaceId: workspace.id, platform, handle: `@bench_${platform}` });
    }

    // Baselines, same run: classification alone over the same texts, and plain single-row inserts.
    const classify = await measure('baseline: classifyComment alone', POLLED_COMMENTS, 1, async (i) => void classifyComment(texts[i % texts.length]));
    await db.pool.query('CREATE TABLE bench_baseline (id uuid PRIMARY KEY, workspace_id uuid NOT NULL, text text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())');
    const insert = (i: number) => db.pool.query('INSERT INTO bench_baseline (id, workspace_id, text) VALUES ($1, $2, $3)', [randomUUID(), workspace.id, texts[i % texts.length]]).then(() => undefined);
    const insertSequential = await measure('baseline: single-row INSERT (c=1)', POLLED_COMMENTS, 1, insert);
    const insertConcurrent = await measure(`baseline: single-row INSERT (c=${WEBHOOK_CONCURRENCY})`, WEBHOOK_COMMENTS, WEBHOOK_CONCURRENCY, insert);
    results.push(classify, insertSequential, insertConcurrent);

    service = await startService(db, ['projector', 'posts', 'publisher', 'comments', 'gateway'], {
      PLATFORM_SANDBOX_URL: sandbox.url,
      X_POOL_MONTHLY_POSTS: '100000',
      COMMENTS_POLL_INTERVAL_MS: String(POLL_INTERVAL_MS),
      META_APP_SECRET,
    });
    const publishNow = async (content: string, accounts: string[]) => {
      const response = await fetch(`${service!.url}/api/v1/posts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content, accounts, publishNow: true }),
      });
      const body = (await response.json()) as { post: { status: string } };
      if (response.status !== 201 || body.post.status !== 'published') throw new Error(`publishNow answered ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
    };
    // Webhooks first, so the poller has nothing to re-read meanwhile: its pass over comments already stored is part of the poll figure only.
    await publishNow(WEBHOOK_POST, ['facebook:@bench_facebook']);
    await publishNow('Spring collection is live', POLLED_PLATFORMS.map((p) => `${p}:@bench_${p}`));
    const posts = sandbox.control.published({ kind: 'post' });
    const webhookItem = posts.find((item) => item.text === WEBHOOK_POST)!;
    const polledItems = posts.filter((item) => item !== webhookItem);

    // 1. Webhook: signed Meta Page feed calls, one comment each, under a Facebook post with no comments to poll.
    const webhookStarted = process.hrtime.bigint();
    const sendWebhook = async (comments: FeedComment[]) => {
      const body = feedWebhook(webhookItem.id, comments);
      const response = await fetch(`${service!.url}/webhooks/meta`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(body, META_APP_SECRET) },
        body,
      });
      const answer = (await response.json()) as { received?: number };
      if (response.status !== 200 || answer.received !== comments.length) throw new Error(`webhook answered ${response.status} ${JSON.stringify(answer)}`);
    };
    const feedComment = (prefix: string, i: number): FeedComment => ({ commentId: `${webhookItem.id}_${prefix}${i}`, text: texts[i % texts.length], author: `${prefix}_fan${i}` });
    const webhookCalls = await measure(`POST /webhooks/meta, 1 comment (c=${WEBHOOK_CONCURRENCY})`, WEBHOOK_COMMENTS, WEBHOOK_CONCURRENCY, (i) => sendWebhook([feedComment('wh', i)]));
    const webhook = throughput(`webhook, 1 comment each → listed (c=${WEBHOOK_CONCURRENCY})`, WEBHOOK_COMMENTS, await secondsUntilListed(db.pool, workspace.id, WEBHOOK_COMMENTS, webhookStarted));
    results.push(webhookCalls);
    endToEnd.push(webhook);

    // 1b. Webhook deliveries carrying CHANGES_PER_DELIVERY comments each, as Meta batches them under load.
    const batchedStarted = process.hrtime.bigint();
    const deliveries = Math.ceil(BATCHED_WEBHOOK_COMMENTS / CHANGES_PER_DELIVERY);
    const batchedCalls = await measure(`POST /webhooks/meta, ${CHANGES_PER_DELIVERY} comments (c=${BATCHED_CONCURRENCY})`, deliveries, BATCHED_CONCURRENCY, (d) =>
      sendWebhook(Array.from({ length: CHANGES_PER_DELIVERY }, (_, k) => feedComment('whb', d * CHANGES_PER_DELIVERY + k))),
    );
    const batchedTotal = deliveries * CHANGES_PER_DELIVERY;
    const batched = throughput(`webhook, ${CHANGES_PER_DELIVERY} each → listed (c=${BATCHED_CONCURRENCY})`, batchedTotal, await secondsUntilListed(db.pool, workspace.id, WEBHOOK_COMMENTS + batchedTotal, batchedStarted));
    results.push(batchedCalls);
    endToEnd.push(batched);

    // 2. Poll: every comment appears on the platforms at once; the comments app finds them on its next pass.
    for (let i = 0; i < POLLED_COMMENTS; i++) {
      const item = polledItems[i % polledItems.length];
      sandbox.control.addComment({ platform: item.platform, parentId: item.id, text: texts[i % texts.length], author: `fan${i}` });
    }
    const pollStarted = process.hrtime.bigint();
    const polled = throughput(`poll → listed (${polledItems.length} items, ${POLL_INTERVAL_MS} ms interval)`, POLLED_COMMENTS, await secondsUntilListed(db.pool, workspace.id, WEBHOOK_COMMENTS + batchedTotal + POLLED_COMMENTS, pollStarted));
    endToEnd.push(polled);

    // 3. The list at 1,000,000 comments: the ingesting apps stop (no background load); a lone gateway answers.
    service.stop();
    service = await startService(db, ['gateway']);
    const seedStarted = Date.now();
    await seedCommentViews(db.pool, workspace.id, LIST_ROWS, texts);
    say(`seeded ${LIST_ROWS} comments in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s`);
    const plans: string[] = [];
    const get = async (query: string) => {
      const response = await fetch(`${service!.url}/api/v1/comments${query ? `?${query}` : ''}`, { headers: { authorization: `Bearer ${key}` } });
      const body = (await response.json()) as { comments?: unknown[] };
      if (response.status !== 200 || !body.comments?.length) throw new Error(`list ?${query} answered ${response.status} with ${body.comments?.length} comments`);
    };
    await measure('warm-up', 200, LIST_CONCURRENCY, () => get(''));
    for (const { label, query, filter } of LIST_CASES) {
      const plan = await explainList(db.pool, workspace.id, { ...filter, limit: LIST_LIMIT });
      plans.push(`${label.padEnd(30)} ${plan.path.join(' → ')}${plan.usesIndex ? '' : '   <-- NO ORDERED INDEX'}`);
      results.push(await measure(`list ${label} (c=1)`, LIST_REQUESTS, 1, () => get(query)));
      results.push(await measure(`list ${label} (c=${LIST_CONCURRENCY})`, LIST_REQUESTS * 2, LIST_CONCURRENCY, () => get(query)));
    }

    say(`\n${'benchmark'.padEnd(44)} ${'count'.padStart(7)} ${'rate'.padStart(11)}`);
    for (const m of results) say(formatRow(m));
    say('\nend to end (until comment_views holds every comment):');
    for (const t of endToEnd) say(formatThroughput(t));
    say(`\nplans at ${LIST_ROWS} comments (EXPLAIN of the reader's own SQL):`);
    for (const line of plans) say(`  ${line}`);
    say(`\npolled comments listed / classifyComment alone: ${((polled.perSecond / classify.perSecond) * 100).toFixed(1)}%`);
    say(`polled comments listed / single-row INSERT (c=1): ${((polled.perSecond / insertSequential.perSecond) * 100).toFixed(1)}%`);
    say(`webhook comments (1 a delivery) listed / classifyComment alone: ${((webhook.perSecond / classify.perSecond) * 100).toFixed(1)}%`);
    say(`webhook comments (${CHANGES_PER_DELIVERY} a delivery) listed / classifyComment alone: ${((batched.perSecond / classify.perSecond) * 100).toFixed(1)}%`);
    say(`webhook comments listed / single-row INSERT (c=${WEBHOOK_CONCURRENCY}): ${((webhook.perSecond / insertConcurrent.perSecond) * 100).toFixed(1)}%`);
    reportFigures('comments', {
      classifyPerSecond: classify.perSecond,
      insertPerSecond: { sequential: insertSequential.perSecond, concurrent: insertConcurrent.perSecond },
      poll: { count: polled.count, perSecond: polled.perSecond, overClassify: polled.perSecond / classify.perSecond },
      webhook: { count: webhook.count, perSecond: webhook.perSecond, overClassify: webhook.perSecond / classify.perSecond, callP50Ms: webhookCalls.p50, callP99Ms: webhookCalls.p99 },
      batchedWebhook: { changesPerDelivery: CHANGES_PER_DELIVERY, count: batched.count, perSecond: batched.perSecond, overClassify: batched.perSecond / classify.perSecond, callP50Ms: batchedCalls.p50, callP99Ms: batchedCalls.p99 },
      lists: results.slice(5).map((m) => ({ name: m.name, perSecond: m.perSecond, p50Ms: m.p50, p99Ms: m.p99 })),
      plans,
    });
  } finally {
    service?.stop();
    await db.drop();
    await sandbox.close();
  }
}

runScript(main);

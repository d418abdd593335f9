import 'reflect-metadata';
import { Pool } from 'pg';
import { rebuildProjections } from '../apps/projector/src/rebuild/rebuild-projections';
import { createBenchDatabase } from './bench-environment';
import { reportFigures } from './report';
import { runScript } from './run-script';

/**
 * npm run bench:rebuild: replays 1,000,000 events into fresh read-model tables
 * (npm run rebuild-projections) and reports events replayed per second. The
 * events are written straight into the store by generate_series: per post
 * PostCreated, PublishRequested, AccountPublished, PublishCompleted (80% of the
 * events), per comment CommentReceived and CommentReplied (20%).
 */
const EVENTS = Number(process.env.BENCH_REBUILD_EVENTS ?? 1_000_000);
const BATCH_SIZE = Number(process.env.BENCH_REBUILD_BATCH ?? 5000);
const POSTS = Math.floor(EVENTS / 5);
const COMMENTS = Math.floor(EVENTS / 10);
/** Posts (and comments) per INSERT: one transaction each, like a stream of appends. */
const CHUNK = 20_000;

/** Posts first to last, each with its four events in stream order. */
const POST_EVENTS_SQL = `
INSERT INTO events (event_id, stream_id, stream_position, type, data, metadata, created_at)
SELECT gen_random_uuid(), 'post-' || p.id, s.pos, s.type, s.data, jsonb_build_object('workspaceId', p.ws, 'version', 1), p.at
FROM (SELECT i, md5('post' || i)::uuid AS id, md5('ws' || i % 10)::uuid AS ws, md5('account' || i % 10)::uuid AS account,
             'Launch day ' || i || ': our new app is here, with everything you asked for' AS content,
             timestamptz '2025-01-01' + i * interval '1 second' AS at
      FROM generate_series($1::int, $2::int) AS i) p
CROSS JOIN LATERAL (SELECT jsonb_build_array(jsonb_build_object('accountId', p.account, 'platform', 'x', 'handle', '@acme' || p.i % 10)) AS list) a
CROSS JOIN LATERAL (VALUES
  (0, 'PostCreated', jsonb_build_object('postId', p.id, 'workspaceId', p.ws, 'content', p.content, 'mediaUrls', '[]'::jsonb, 'firstComments', '[]'::jsonb,
                                        'accounts', a.list, 'scheduledAt', null, 'createdAt', p.at, 'idempotency', null)),
  (1, 'PublishRequested', jsonb_build_object('postId', p.id, 'workspaceId', p.ws, 'attempt', 1, 'accounts', a.list, 'content', p.content,
                                             'mediaUrls', '[]'::jsonb, 'firstComments', '[]'::jsonb, 'requestedAt', p.at)),
  (2, 'AccountPublished', jsonb_build_object('postId', p.id, 'accountId', p.account, 'platform', 'x', 'attempt', 1, 'platformPostId', 'x' || p.i,
                                             'url', 'https://x.com/acme/status/x' || p.i, 'reconciled', false, 'publishedAt', p.at)),
  (3, 'PublishCompleted', jsonb_build_object('postId', p.id, 'attempt', 1, 'status', 'published', 'publishedAt', p.at, 'errorMessage', null, 'completedAt', p.at))
) AS s(pos, type, data)
ORDER BY p.i, s.pos`;

/** Comments under the published posts, each received then replied to. */
const COMMENT_EVENTS_SQL = `
INSERT INTO events (event_id, stream_id, stream_position, type, data, metadata, created_at)
SELECT gen_random_uuid(), 'comment-' || c.id, s.pos, s.type, s.data, jsonb_build_object('workspaceId', c.ws, 'version', 1), c.at
FROM (SELECT j, md5('comment' || j)::uuid AS id, md5('post' || j % $3::int)::uuid AS post, j % $3::int AS post_index,
             md5('ws' || (j % $3::int) % 10)::uuid AS ws, md5('account' || (j % $3::int) % 10)::uuid AS account,
             timestamptz '2025-06-01' + j * interval '1 second' AS at
      FROM generate_series($1::int, $2::int) AS j) c
CROSS JOIN LATERAL (VALUES
  (0, 'CommentReceived', jsonb_build_object('commentId', c.id, 'workspaceId', c.ws, 'platform', 'x', 'platformCommentId', 'xc' || c.j,
                                            'platformPostId', 'x' || c.post_index, 'postId', c.post, 'accountId', c.account, 'author', '@fan' || c.j,
                                            'text', 'Love this, when does it ship?', 'url', null, 'postTitle', null, 'commentedAt', c.at,
                                            'receivedAt', c.at, 'sentiment', 'positive', 'tags', jsonb_build_array('question'))),
  (1, 'CommentReplied', jsonb_build_object('commentId', c.id, 'accountId', c.account, 'repliedAs', '@acme', 'replyPlatformId', 'xr' || c.j,
                                           'message', 'Next week!', 'repliedAt', c.at))
) AS s(pos, type, data)
ORDER BY c.j, s.pos`;

async function generateEvents(pool: Pool): Promise<void> {
  const commentsPerChunk = Math.floor((CHUNK * COMMENTS) / POSTS);
  for (let first = 0, chunk = 0; first < POSTS; first += CHUNK, chunk++) {
    await pool.query(POST_EVENTS_SQL, [first, Math.min(first + CHUNK, POSTS) - 1]);
    const from = chunk * commentsPerChunk;
    const to = Math.min(from + commentsPerChunk, COMMENTS) - 1;
    // Comments only under posts already written.
    if (from <= to) await pool.query(COMMENT_EVENTS_SQL, [from, to, Math.min(first + CHUNK, POSTS)]);
  }
  await pool.query('VACUUM ANALYZE events');
}

async function count(pool: Pool, sql: string): Promise<number> {
  const { rows } = await pool.query<{ count: string }>(sql);
  return Number(rows[0].count);
}

async function main(): Promise<void> {
  const db = await createBenchDatabase(4);
  try {
    let started = Date.now();
    await generateEvents(db.pool);
    const events = await count(db.pool, 'SELECT count(*) FROM events');
    process.stdout.write(`generated ${events} events (${POSTS} posts, ${COMMENTS} comments) in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

    started = Date.now();
    // One report per read model: each replays the whole feed into its own tables, the models side by side.
    const reports = await rebuildProjections({ pool: db.pool, databaseUrl: db.url, batchSize: BATCH_SIZE, log: (line) => process.stdout.write(`  ${line}\n`) });
    const totalSeconds = (Date.now() - started) / 1000;
    const replaySeconds = Math.max(...reports.map((report) => report.replaySeconds));

    const published = await count(db.pool, `SELECT count(*) FROM post_views WHERE status = 'published' AND jsonb_array_length(results) = 1`);
    const replied = await count(db.pool, 'SELECT count(*) FROM comment_views WHERE replied');
    const short = reports.filter((report) => report.replayed !== events);
    if (short.length || published !== POSTS || replied !== COMMENTS) {
      const replayed = reports.map((report) => `${report.readModel} ${report.replayed}`).join(', ');
      throw new Error(`rebuild incomplete: ${replayed} of ${events} events, ${published}/${POSTS} published posts, ${replied}/${COMMENTS} replied comments`);
    }
    process.stdout.write(
      `\nbatch size ${BATCH_SIZE}: ${reports.map((report) => `${report.readModel} replayed ${report.replayed} events in ${report.replaySeconds.toFixed(1)} s`).join('; ')}\n` +
        `replay (read models side by side): ${replaySeconds.toFixed(1)} s = ${Math.round(events / replaySeconds)} events/s\n` +
        `whole rebuild (tables, replay, indexes, switch): ${totalSeconds.toFixed(1)} s = ${Math.round(events / totalSeconds)} events/s\n`,
    );
    reportFigures('rebuild', {
      events,
      batchSize: BATCH_SIZE,
      readModels: reports.map((report) => ({ readModel: report.readModel, replayed: report.replayed, replaySeconds: report.replaySeconds })),
      replaySeconds,
      replayPerSecond: events / replaySeconds,
      wholeRebuildSeconds: totalSeconds,
      wholeRebuildPerSecond: events / totalSeconds,
    });
  } finally {
    await db.drop();
  }
}

runScript(main);

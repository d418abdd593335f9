import { randomUUID } from 'node:crypto';
import { TestStack } from '../support/test-stack';

/**
 * Bulk import (issue 23) through HTTP: JSON and CSV, each row checked by the single create's
 * rules; atomic imports create all rows or none; a retried upload with the same
 * Idempotency-Key creates nothing new; NDJSON streams each row's outcome.
 */
describe('POST /api/v1/posts/bulk', () => {
  let stack: TestStack;
  let key: string;
  let workspaceId: string;
  const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

  beforeAll(async () => {
    stack = await TestStack.start({ sandbox: true, apps: ['projector', 'posts', 'gateway'], overrides: { publishWaitMs: 200 } });
    ({ workspaceId, key } = await stack.workspace(['read', 'write']));
    await stack.connect(workspaceId, 'x', '@acme');
    await stack.connect(workspaceId, 'facebook', '@acme_page');
  });
  afterAll(() => stack.stop());

  const csvUpload = (csv: string, fields: Record<string, string> = {}) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'posts.csv');
    return form;
  };
  const bulk = (body: unknown, headers: Record<string, string> = {}) => stack.request('POST', '/api/v1/posts/bulk', { key, body, headers });
  const postIdsOfWorkspace = async () => {
    const { rows } = await stack.db.pool.query<{ id: string }>('SELECT id FROM post_views WHERE workspace_id = $1', [workspaceId]);
    return rows.map((r) => r.id);
  };

  const csv = (at: string) =>
    [
      'content,accounts,scheduledAt,mediaUrls,firstComments,content_x',
      `"Launch day, finally",x:@acme | facebook:@acme_page,${at},https://cdn.example.com/a.png,"first!",Short for X`,
      `${'a'.repeat(10_001)},x:@acme,${at},,,`,
      `Second,x:@ghost,${at},,,`,
      `Third,x:@acme,2001-01-01T00:00:00Z,,,`,
      `Fourth,facebook:@acme_page,,,,`,
    ].join('\n');

  it('a CSV with good and bad rows, not atomic: the good rows are created, each bad one reported with its code, row and column', async () => {
    const answer = await bulk(csvUpload(csv(inAnHour())));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ atomic: false, total: 5, created: 2, refused: 3 });
    const [first, tooLong, ghost, past, draft] = answer.body.rows;
    expect(first).toMatchObject({ row: 1, status: 'created', identity: expect.stringMatching(/^1:[0-9a-f]{16}$/), postId: expect.any(String) });
    expect(tooLong).toMatchObject({ row: 2, status: 'refused', error: { code: 'content_too_long', column: 'content' } });
    expect(ghost).toMatchObject({ row: 3, status: 'refused', error: { code: 'unknown_account', column: 'accounts' } });
    expect(past).toMatchObject({ row: 4, status: 'refused', error: { code: 'scheduled_at_in_past', column: 'scheduledAt' } });
    expect(draft).toMatchObject({ row: 5, status: 'created' });
    // Read-your-writes: the created posts are there, as a single create makes them.
    const post = (await stack.request('GET', `/api/v1/posts/${first.postId}`, { key })).body.post;
    expect(post).toMatchObject({ content: 'Launch day, finally', status: 'scheduled', platforms: ['x', 'facebook'], mediaUrls: ['https://cdn.example.com/a.png'], firstComments: ['first!'], overrides: { x: { content: 'Short for X' } } });
    expect((await stack.request('GET', `/api/v1/posts/${draft.postId}`, { key })).body.post.status).toBe('draft');
  });

  it('the same CSV atomic: one refused row and nothing is created, not an event appended', async () => {
    const events = await stack.eventCount();
    const posts = await postIdsOfWorkspace();
    const answer = await bulk(csvUpload(csv(inAnHour()), { atomic: 'true' }));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ atomic: true, total: 5, created: 0, refused: 3 });
    expect(answer.body.rows.map((r: { status: string }) => r.status)).toEqual(['skipped', 'refused', 'refused', 'refused', 'skipped']);
    expect(await stack.eventCount()).toBe(events);
    expect(await postIdsOfWorkspace()).toEqual(posts);
  });

  it('an atomic import of good rows creates them all', async () => {
    const good = ['content,accounts,scheduledAt', `One,x:@acme,${inAnHour()}`, `Two,facebook:@acme_page,${inAnHour()}`].join('\n');
    const answer = await bulk(csvUpload(good, { atomic: 'true' }));
    expect(answer.body).toMatchObject({ atomic: true, total: 2, created: 2, refused: 0 });
    for (const row of answer.body.rows) expect((await stack.request('GET', `/api/v1/posts/${row.postId}`, { key })).body.post.status).toBe('scheduled');
  });

  it('a JSON array: each entry a single create body; a wrongly typed field is that row\'s invalid_body, an unknown one its unknown_field', async () => {
    const answer = await bulk({
      posts: [
        { content: 'json one', accounts: ['x:@acme'], scheduledAt: inAnHour() },
        { content: 42, accounts: ['x:@acme'] },
        { content: 'json three', accounts: ['x:@acme'], colour: 'red' },
        'not a post',
        { content: 'json five', platforms: ['facebook'] },
      ],
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ atomic: false, total: 5, created: 2, refused: 3 });
    expect(answer.body.rows.map((r: { status: string; error?: { code: string } }) => r.error?.code ?? r.status)).toEqual(['created', 'invalid_body', 'unknown_field', 'invalid_body', 'created']);
    expect(answer.body.rows[2].error.column).toBe('colour');
  });

  it('a JSON import, atomic, with a row refused by the posts rules appends nothing', async () => {
    const events = await stack.eventCount();
    const answer = await bulk({ atomic: true, posts: [{ content: 'fine', accounts: ['x:@acme'] }, { content: 'nowhere', accounts: [] }] });
    expect(answer.body).toMatchObject({ created: 0, refused: 1 });
    expect(answer.body.rows[1]).toMatchObject({ status: 'refused', error: { code: 'accounts_required', column: 'accounts' } });
    expect(await stack.eventCount()).toBe(events);
  });

  it('queue rows take slots as single creates do, one after the other; an atomic import with one is refused whole and appends nothing', async () => {
    const facebook = (await stack.request('GET', '/api/v1/accounts', { key })).body.accounts.find((account: { platform: string }) => account.platform === 'facebook');
    const scheduled = await stack.request('PUT', `/api/v1/accounts/${facebook.id}/schedule`, { key, body: { timezone: 'Europe/Berlin', slots: [{ day: 'mon', time: '09:00' }, { day: 'thu', time: '18:30' }] } });
    expect(scheduled.status).toBe(200);
    const queued = await bulk({ posts: [{ content: 'first in line', accounts: ['facebook:@acme_page'], queue: true }, { content: 'second in line', accounts: ['facebook:@acme_page'], queue: true }] });
    expect(queued.body).toMatchObject({ created: 2, refused: 0 });
    const times = await Promise.all(queued.body.rows.map(async (row: { postId: string }) => (await stack.request('GET', `/api/v1/posts/${row.postId}`, { key })).body.post.scheduledAt));
    expect(times.every((at: string | null) => at !== null && Date.parse(at) > Date.now())).toBe(true);
    expect(new Set(times).size).toBe(2);

    const events = await stack.eventCount();
    const atomic = await bulk({ atomic: true, posts: [{ content: 'fine', accounts: ['x:@acme'] }, { content: 'queued', accounts: ['facebook:@acme_page'], queue: true }] });
    expect(atomic.status).toBe(400);
    expect(atomic.body.error).toMatchObject({ code: 'queue_and_atomic', details: { row: 2 } });
    expect(await stack.eventCount()).toBe(events);
  });

  it('a retried upload with the same Idempotency-Key creates nothing new: the same posts, replayed, row identities stable', async () => {
    const upload = () => csvUpload(['content,accounts', 'Idem one,x:@acme', 'Idem two,facebook:@acme_page', 'Idem bad,x:@ghost'].join('\n'));
    const first = await bulk(upload(), { 'idempotency-key': 'import-2030-01' });
    expect(first.body).toMatchObject({ created: 2, refused: 1 });
    const events = await stack.eventCount();
    const again = await bulk(upload(), { 'idempotency-key': 'import-2030-01' });
    expect(again.body).toMatchObject({ created: 2, refused: 1 });
    expect(await stack.eventCount()).toBe(events);
    expect(again.body.rows.map((r: { postId?: string }) => r.postId)).toEqual(first.body.rows.map((r: { postId?: string }) => r.postId));
    expect(again.body.rows.map((r: { identity: string }) => r.identity)).toEqual(first.body.rows.map((r: { identity: string }) => r.identity));
    expect(again.body.rows.slice(0, 2).map((r: { replayed: boolean }) => r.replayed)).toEqual([true, true]);
    expect(first.body.rows[0].replayed).toBe(false);
  });

  it('streams NDJSON: one line per row as it is decided, then the summary', async () => {
    const answer = await bulk({ posts: [{ content: 'nd one', accounts: ['x:@acme'] }, { content: 'nd two', accounts: ['x:@ghost'] }] }, { accept: 'application/x-ndjson' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = answer.text.trim().split('\n').map((line: string) => JSON.parse(line));
    expect(lines).toEqual([
      expect.objectContaining({ row: 1, status: 'created' }),
      expect.objectContaining({ row: 2, status: 'refused', error: expect.objectContaining({ code: 'unknown_account' }) }),
      { summary: { atomic: false, total: 2, created: 1, refused: 1 } },
    ]);
  });

  it('refuses a CSV with an unknown column, another file type, more than 1,000 rows, and a multipart body elsewhere, creating nothing', async () => {
    const events = await stack.eventCount();
    const unknownColumn = await bulk(csvUpload('content,accounts,colour\nHi,x:@acme,red'));
    expect({ status: unknownColumn.status, code: unknownColumn.body.error.code }).toEqual({ status: 400, code: 'unknown_field' });
    const form = new FormData();
    form.append('file', new Blob(['{}'], { type: 'application/json' }), 'posts.json');
    expect((await bulk(form)).body.error.code).toBe('unsupported_media_type');
    // Past 1,000 rows: that row refused and nothing after it read; atomic, so nothing created.
    const tooMany = await bulk(csvUpload(['content,accounts', ...Array.from({ length: 1005 }, (_, i) => `Row ${i},x:@acme`)].join('\n'), { atomic: 'true' }));
    expect(tooMany.body).toMatchObject({ total: 1001, created: 0, refused: 1 });
    expect(tooMany.body.rows[1000]).toMatchObject({ row: 1001, status: 'refused', error: { code: 'invalid_body' } });
    expect((await bulk({ posts: Array.from({ length: 1001 }, () => ({ content: 'x', accounts: ['x:@acme'] })) })).body.error.code).toBe('invalid_body');
    // A line that cannot be read (another number of cells), atomic: that row refused, nothing created.
    const malformed = await bulk(csvUpload('content,accounts\nFine,x:@acme\nToo,many,cells\nAlso fine,x:@acme\n', { atomic: 'true' }));
    expect(malformed.body).toMatchObject({ created: 0, refused: 1 });
    expect(malformed.body.rows.map((r: { row: number; status: string }) => [r.row, r.status])).toEqual([[1, 'skipped'], [2, 'refused'], [3, 'skipped']]);
    expect(malformed.body.rows[1].error).toMatchObject({ code: 'invalid_body', details: { line: 3 } });
    const elsewhere = await stack.request('POST', '/api/v1/posts', { key, body: csvUpload('content\nHi') });
    expect({ status: elsewhere.status, code: elsewhere.body.error.code }).toEqual({ status: 415, code: 'unsupported_media_type' });
    const uploadWithoutBody = await stack.request('DELETE', `/api/v1/posts/${randomUUID()}`, { key, body: csvUpload('content\nHi') });
    expect({ status: uploadWithoutBody.status, code: uploadWithoutBody.body.error.code }).toEqual({ status: 415, code: 'unsupported_media_type' });
    expect((await bulk({ posts: [] })).body.error.code).toBe('invalid_body');
    expect((await stack.request('POST', '/api/v1/posts/bulk', { key, body: 'content\nHi', headers: { 'content-type': 'text/csv' } })).status).toBe(415);
    expect(await stack.eventCount()).toBe(events);
  });

  it('needs the write scope; publishNow rows need publish as well', async () => {
    const reader = await stack.key(workspaceId, ['read']);
    const refused = await stack.request('POST', '/api/v1/posts/bulk', { key: reader, body: { posts: [{ content: 'x', accounts: ['x:@acme'] }] } });
    expect({ status: refused.status, code: refused.body.error.code }).toEqual({ status: 403, code: 'insufficient_scope' });
    const publishing = await bulk({ posts: [{ content: 'now', accounts: ['x:@acme'], publishNow: true }] });
    expect({ status: publishing.status, code: publishing.body.error.code, missing: publishing.body.error.details.missing }).toEqual({ status: 403, code: 'insufficient_scope', missing: ['publish'] });
  });
});

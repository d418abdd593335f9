import { DEMO_ACCOUNTS } from '../../tools/local/demo-workspace';
import { TestStack } from '../support/test-stack';

/**
 * The document's examples are requests that work: the create-post sample Swagger UI offers is
 * sent as it is to a stack with npm start's demo accounts (tools/local/demo-workspace) and
 * publishes to each it names; the edit sample, sent with the ETag GET gave, edits, and its answer
 * carries the post's new ETag — the one GET gives next — so edits can follow one another.
 */
type Example = { content: Record<string, { example: Record<string, unknown> }> };
type Document = { paths: Record<string, Record<string, { requestBody: Example }>> };

let stack: TestStack;
let key: string;
let doc: Document;

beforeAll(async () => {
  stack = await TestStack.start({ sandbox: true });
  let workspaceId: string;
  ({ workspaceId, key } = await stack.workspace(['read', 'write', 'publish']));
  for (const { platform, handle } of DEMO_ACCOUNTS) await stack.connect(workspaceId, platform, handle);
  doc = (await stack.request('GET', '/api/openapi.json')).body;
});
afterAll(() => stack.stop());

const sample = (path: string, method: string) => doc.paths[path][method].requestBody.content['application/json'].example;

it('the create-post sample request publishes to the demo accounts', async () => {
  const body = sample('/api/v1/posts', 'post');
  expect(DEMO_ACCOUNTS.map(({ platform, handle }) => `${platform}:${handle}`)).toEqual(expect.arrayContaining(body.accounts as string[]));
  const created = await stack.request('POST', '/api/v1/posts', { key, body });
  expect(created.status).toBe(201);
  expect(created.body.post.status).toBe('published');
  expect(created.body.results).toEqual([expect.objectContaining({ platform: 'x', success: true }), expect.objectContaining({ platform: 'facebook', success: true })]);
  const shown = await stack.request('GET', `/api/v1/posts/${created.body.post.id}`, { key });
  expect(created.headers.get('etag')).toBe(shown.headers.get('etag'));
});

it('the edit sample, sent with the ETag from GET, edits; its answer carries the ETag GET gives next', async () => {
  const draft = await stack.request('POST', '/api/v1/posts', { key, body: { content: 'A draft', accounts: ['x:@demo'] } });
  expect(draft.status).toBe(201);
  const id = draft.body.post.id as string;
  const before = await stack.request('GET', `/api/v1/posts/${id}`, { key });
  const firstTag = before.headers.get('etag')!;
  expect(firstTag).toMatch(/^"\d+"$/);
  expect(draft.headers.get('etag')).toBe(firstTag);

  const edited = await stack.request('PATCH', `/api/v1/posts/${id}`, { key, body: sample('/api/v1/posts/{id}', 'patch'), headers: { 'if-match': firstTag } });
  expect(edited.status).toBe(200);
  expect(edited.body.post.status).toBe('scheduled');
  const editTag = edited.headers.get('etag');
  expect(editTag).not.toBe(firstTag);
  const after = await stack.request('GET', `/api/v1/posts/${id}`, { key });
  expect(after.headers.get('etag')).toBe(editTag);
  expect(after.body.post.version).toBe(Number(JSON.parse(editTag!)));

  // The answer's ETag is good for the next edit; the one from before the edit is stale.
  const again = await stack.request('PATCH', `/api/v1/posts/${id}`, { key, body: { content: 'Edited twice' }, headers: { 'if-match': editTag! } });
  expect(again.status).toBe(200);
  const events = await stack.eventCount();
  const stale = await stack.request('PATCH', `/api/v1/posts/${id}`, { key, body: { content: 'Lost update' }, headers: { 'if-match': editTag! } });
  expect(stale.status).toBe(412);
  expect(stale.body.error.code).toBe('precondition_failed');
  expect(await stack.eventCount()).toBe(events);
});

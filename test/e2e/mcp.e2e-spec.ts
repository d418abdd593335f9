import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Platform } from '@app/contracts';
import { OPERATIONS } from '@app/sdk';
import openapi from '../../docs/openapi.json';
import { TestStack, tokenOf } from '../support/test-stack';
import { CommentsWorld, startCommentsStack } from './comments-fixture';

type ToolAnswer = { isError?: boolean; structuredContent?: any; content: Array<{ type: string; text?: string }> };

const REPO = join(__dirname, '../..');
/** POST /api/v1/connect-links is another change of issue 25: its tool exists once the SDK is generated from a document that has it. */
const CONNECT_LINKS = OPERATIONS.ConnectLinksController_create !== undefined;
const TOOLS = ['list_accounts', 'create_draft', 'schedule_post', 'publish_post', 'publish_draft', 'get_post', 'list_posts', 'retry_post', 'list_comments', 'reply_to_comment', 'hide_comment', 'unhide_comment', ...(CONNECT_LINKS ? ['create_connect_link'] : [])];

/**
 * The MCP server with the MCP SDK's own client, over both transports: stdio
 * (the bin a desktop client launches, here from the sources) and Streamable
 * HTTP at /mcp on the gateway, each with the key of the test.
 */
describe.each([
  ['Streamable HTTP at /mcp', 'http'],
  ['stdio', 'stdio'],
] as const)('the MCP server over %s', (_name, transport) => {
  let stack: TestStack;
  let workspaceId: string;
  let key: string;
  const clients: Client[] = [];
  let seq = 0;

  beforeAll(async () => {
    // The comments stack: the whole service with the sandbox, comments polled every 50 ms.
    stack = await startCommentsStack({ publishWaitMs: 8_000 });
    ({ workspaceId, key } = await stack.workspace(['read', 'write', 'publish', 'engage']));
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await stack?.stop();
  });

  async function connectClient(apiKey: string): Promise<Client> {
    const client = new Client({ name: 'mcp-e2e', version: '1.0.0' });
    clients.push(client);
    if (transport === 'http') {
      await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${apiKey}` } } }));
    } else {
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: ['-r', join(REPO, 'test/support/swc-register.cjs'), join(REPO, 'libs/mcp/src/stdio-main.ts')],
          env: { SOCIAL_API_KEY: apiKey, SOCIAL_API_URL: stack.baseUrl },
          cwd: REPO,
          stderr: 'inherit',
        }),
      );
    }
    return client;
  }
  const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as ToolAnswer;
  const account = async (platform: Platform) => stack.connect(workspaceId, platform, `@mcp${++seq}${Math.random().toString(36).slice(2, 6)}`);

  it('lists the tools, each with the input schema of its API operation', async () => {
    const client = await connectClient(key);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOLS].sort());
    const create = openapi.components.schemas.CreatePostDto;
    const publish = tools.find((tool) => tool.name === 'publish_post')!;
    expect(Object.keys(publish.inputSchema.properties!).sort()).toEqual([...Object.keys(create.properties).filter((name) => !['scheduledAt', 'publishNow'].includes(name)), 'idempotencyKey'].sort());
    // The document's rules as they are, in JSON Schema's words (OpenAPI 3.0's nullable is a "null" type there).
    const { nullable, type, ...rules } = create.properties.content;
    expect(nullable).toBe(true);
    expect(publish.inputSchema.properties!.content).toEqual({ ...rules, type: [type, 'null'] });
    const schedule = tools.find((tool) => tool.name === 'schedule_post')!;
    expect(schedule.inputSchema.required).toEqual(['scheduledAt']);
    const comments = tools.find((tool) => tool.name === 'list_comments')!;
    expect(Object.keys(comments.inputSchema.properties!)).toEqual(openapi.paths['/api/v1/comments'].get.parameters.map((parameter) => parameter.name));
  });

  it('publishes through a tool with one result per account, and the REST API shows the post', async () => {
    const client = await connectClient(key);
    const [mastodon, x] = [await account('mastodon'), await account('x')];
    const answer = await call(client, 'publish_post', { content: 'Hello from an agent', accounts: [mastodon.id, x.id] });
    expect(answer.isError).toBeUndefined();
    const created = answer.structuredContent;
    expect(JSON.parse(answer.content[0].text!)).toEqual(created);
    expect(created.post).toMatchObject({ status: 'published', platforms: ['mastodon', 'x'] });
    expect(created.results.map((result: { accountId: string; success: boolean }) => [result.accountId, result.success]).sort()).toEqual([[mastodon.id, true], [x.id, true]].sort());
    expect(stack.sandbox!.control.published({ account: tokenOf(mastodon.handle), kind: 'post' })).toHaveLength(1);

    const rest = await stack.request('GET', `/api/v1/posts/${created.post.id}`, { key });
    expect(rest.status).toBe(200);
    expect(rest.body.post).toMatchObject({ id: created.post.id, status: 'published', content: 'Hello from an agent' });
    // The tool's answer is the API's: get_post answers what GET /api/v1/posts/:id answers.
    expect((await call(client, 'get_post', { id: created.post.id })).structuredContent).toEqual(rest.body);
    expect((await call(client, 'list_accounts')).structuredContent).toEqual((await stack.request('GET', '/api/v1/accounts', { key })).body);
  });

  it('creates a draft, schedules a post and publishes the draft; lists and filters comments as the REST API does', async () => {
    const client = await connectClient(key);
    const mastodon = await account('mastodon');
    const draft = (await call(client, 'create_draft', { content: 'Draft from an agent', accounts: [mastodon.id] })).structuredContent;
    expect(draft.post.status).toBe('draft');
    const scheduledAt = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = (await call(client, 'schedule_post', { content: 'Later', accounts: [mastodon.id], scheduledAt })).structuredContent;
    expect(scheduled.post).toMatchObject({ status: 'scheduled' });
    expect((await stack.request('GET', `/api/v1/posts/${scheduled.post.id}`, { key })).body.post.status).toBe('scheduled');
    const published = await call(client, 'publish_draft', { id: draft.post.id });
    expect(published.isError).toBeUndefined();
    expect((await stack.request('GET', `/api/v1/posts/${draft.post.id}`, { key })).body.post.status).toBe('published');
    const filtered = await call(client, 'list_comments', { platform: 'mastodon', limit: 5 });
    expect(filtered.structuredContent).toEqual((await stack.request('GET', '/api/v1/comments?platform=mastodon&limit=5', { key })).body);
  });

  it('retries the failed account of a partial post through retry_post', async () => {
    const client = await connectClient(key);
    const [x, mastodon] = [await account('x'), await account('mastodon')];
    stack.sandbox!.control.addFault({ platform: 'mastodon', account: tokenOf(mastodon.handle), fault: { type: 'error', status: 422, message: 'Validation failed' } });
    const partial = (await call(client, 'publish_post', { content: 'Second time lucky', accounts: [x.id, mastodon.id] })).structuredContent;
    expect(partial.post.status).toBe('partial');
    expect(partial.results.find((result: { accountId: string }) => result.accountId === mastodon.id)).toMatchObject({ success: false });
    stack.sandbox!.control.clearFaults();
    const retried = await call(client, 'retry_post', { id: partial.post.id });
    expect(retried.isError).toBeUndefined();
    expect(retried.structuredContent.post.status).toBe('published');
    expect(stack.sandbox!.control.published({ account: tokenOf(mastodon.handle), kind: 'post' })).toHaveLength(1);
    expect(stack.sandbox!.control.published({ account: tokenOf(x.handle), kind: 'post' })).toHaveLength(1);
    // Retrying a post with nothing to retry is the API's refusal, as a tool error.
    const again = await call(client, 'retry_post', { id: partial.post.id });
    expect(again).toMatchObject({ isError: true, structuredContent: { error: { code: 'post_not_retryable' } } });
  });

  it('filters the inbox, replies to a comment and hides it through tools, as the REST API shows', async () => {
    const world = new CommentsWorld(stack);
    const { key: inboxKey, commentId } = await world.facebookComment('Love it, where can I buy one?');
    const client = await connectClient(inboxKey);
    const listed = (await call(client, 'list_comments', { platform: 'facebook', unreplied: '1' })).structuredContent;
    expect(listed.comments.map((comment: { platformCommentId: string }) => comment.platformCommentId)).toEqual([commentId]);
    expect((await call(client, 'list_comments', { platform: 'x' })).structuredContent.comments).toEqual([]);

    const replied = await call(client, 'reply_to_comment', { platform: 'facebook', commentId, message: 'In our shop, link in bio!' });
    expect(replied.isError).toBeUndefined();
    expect(replied.structuredContent).toMatchObject({ success: true });
    const hidden = await call(client, 'hide_comment', { platform: 'facebook', commentId });
    expect(hidden.structuredContent).toMatchObject({ success: true, platformCommentId: commentId, hidden: true });

    const [after] = (await world.list(inboxKey, '?platform=facebook&limit=50')).body.comments.filter((comment) => comment.platformCommentId === commentId);
    expect(after).toMatchObject({ replied: true, hidden: true });
    expect((await call(client, 'list_comments', { platform: 'facebook', unreplied: '1' })).structuredContent.comments).toEqual([]);
  });

  it('refuses a tool the key\'s scopes do not allow as the REST call is refused (a tool error with the API\'s code), and creates nothing', async () => {
    const { key: readOnly } = await stack.workspaces.createKey(workspaceId, ['read']);
    const client = await connectClient(readOnly);
    const target = await account('mastodon');
    const events = await stack.eventCount();
    const answer = await call(client, 'publish_post', { content: 'not allowed', accounts: [target.id] });
    expect(answer.isError).toBe(true);
    const rest = await stack.request('POST', '/api/v1/posts', { key: readOnly, body: { content: 'not allowed', accounts: [target.id], publishNow: true } });
    expect(rest.status).toBe(403);
    expect(answer.structuredContent).toEqual(rest.body);
    expect(answer.structuredContent.error).toMatchObject({ code: 'insufficient_scope', details: { missing: ['write', 'publish'] } });
    expect(await stack.eventCount()).toBe(events);
    expect(stack.sandbox!.control.published({ account: tokenOf(target.handle) })).toHaveLength(0);
    // What the key may do, it does.
    expect((await call(client, 'list_posts', { limit: 1 })).isError).toBeUndefined();
  });

  (CONNECT_LINKS ? it : it.skip)('creates a connect link through create_connect_link with an accounts key; a key without that scope is refused', async () => {
    const { key: accountsKey } = await stack.workspaces.createKey(workspaceId, ['read', 'accounts']);
    const created = await call(await connectClient(accountsKey), 'create_connect_link', { redirectUri: 'https://client.example.test/connected', platforms: ['x', 'mastodon'] });
    expect(created.isError).toBeUndefined();
    expect(created.structuredContent).toEqual({ id: expect.any(String), url: expect.any(String), expiresAt: expect.any(String) });
    const page = await fetch(`${stack.baseUrl}${new URL(created.structuredContent.url).pathname}`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const refused = await call(await connectClient(key), 'create_connect_link', { redirectUri: 'https://client.example.test/connected' });
    expect(refused).toMatchObject({ isError: true, structuredContent: { error: { code: 'insufficient_scope', details: { missing: ['accounts'] } } } });
  });

  it('passes bad input on to the API, which refuses it with its own code', async () => {
    const client = await connectClient(key);
    const answer = await call(client, 'create_draft', { content: 'x', accounts: [], colour: 'red' });
    expect(answer.isError).toBe(true);
    expect(answer.structuredContent.error.code).toBe('unknown_field');
  });

  if (transport === 'http') {
    it('/mcp needs a valid key like every operation', async () => {
      const response = await fetch(`${stack.baseUrl}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
      expect(response.status).toBe(401);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unauthenticated');
      const wrong = await fetch(`${stack.baseUrl}/mcp`, { method: 'POST', headers: { authorization: 'Bearer sp_nope', 'content-type': 'application/json' }, body: '{}' });
      expect(wrong.status).toBe(401);
    });

    it('answers the README\'s single request (a tools/call without a session) as JSON; GET and DELETE are 405', async () => {
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_accounts', arguments: {} } });
      const response = await fetch(`${stack.baseUrl}/mcp`, { method: 'POST', headers, body });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('application/json');
      const answer = (await response.json()) as { id: number; result: { structuredContent: unknown } };
      expect(answer.id).toBe(1);
      expect(answer.result.structuredContent).toEqual((await stack.request('GET', '/api/v1/accounts', { key })).body);
      for (const method of ['GET', 'DELETE']) expect((await fetch(`${stack.baseUrl}/mcp`, { method, headers: { authorization: `Bearer ${key}` } })).status).toBe(405);
    });
  }
});

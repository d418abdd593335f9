import { Scope, SCOPES } from '@app/contracts';
import { TestStack } from '../support/test-stack';

/** Every operation × every single scope, plus missing and invalid keys. */
describe('authentication and scopes', () => {
  let stack: TestStack;
  const keys = new Map<string, string>();
  let workspaceId: string;

  beforeAll(async () => {
    stack = await TestStack.start({ sandbox: true });
    const all = await stack.workspace([...SCOPES]);
    workspaceId = all.workspaceId;
    keys.set('all', all.key);
    for (const scope of SCOPES) keys.set(scope, (await stack.workspaces.createKey(workspaceId, [scope])).key);
    keys.set('write+publish', (await stack.workspaces.createKey(workspaceId, ['write', 'publish'])).key);
    await stack.connect(workspaceId, 'instagram', '@shop');
  });
  afterAll(() => stack.stop());

  const draft = { content: 'hello', accounts: ['@shop'] };
  const publishNow = { ...draft, publishNow: true };
  /** `allowed` is the status a key with the needed scopes gets. */
  const operations: Array<{ name: string; method: string; path: string; body?: unknown; needs: Scope[]; allowed: number }> = [
    { name: 'list posts', method: 'GET', path: '/api/v1/posts', needs: ['read'], allowed: 200 },
    { name: 'get a post', method: 'GET', path: '/api/v1/posts/00000000-0000-7000-8000-000000000000', needs: ['read'], allowed: 404 },
    { name: 'list accounts', method: 'GET', path: '/api/v1/accounts', needs: ['read'], allowed: 200 },
    { name: 'create a post', method: 'POST', path: '/api/v1/posts', body: draft, needs: ['write'], allowed: 201 },
    { name: 'create with publishNow', method: 'POST', path: '/api/v1/posts', body: publishNow, needs: ['write', 'publish'], allowed: 201 },
    { name: 'list comments', method: 'GET', path: '/api/v1/comments', needs: ['read'], allowed: 200 },
    // With engage the scope check passes and the unknown comment is judged: 404 shows the scope was enough.
    { name: 'reply to a comment', method: 'POST', path: '/api/v1/comments/reply', body: { platform: 'instagram', commentId: 'never-stored', message: 'hi' }, needs: ['engage'], allowed: 404 },
  ];

  const cases = operations.flatMap((op) => [...SCOPES, 'write+publish'].map((keyName) => ({ op, keyName })));

  it.each(cases)('$op.name with a key of $keyName', async ({ op, keyName }) => {
    const granted = keyName.split('+') as Scope[];
    const allowed = op.needs.every((scope) => granted.includes(scope));
    const before = await stack.eventCount();
    const response = await stack.request(op.method, op.path, { key: keys.get(keyName), body: op.body });
    if (allowed) {
      expect(response.status).toBe(op.allowed);
    } else {
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('insufficient_scope');
      expect(await stack.eventCount()).toBe(before);
    }
  });

  it.each(operations)('$name without a key is 401', async (op) => {
    const response = await stack.request(op.method, op.path, { body: op.body });
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('unauthenticated');
  });

  it.each(['Bearer sp_not-a-real-key', 'Basic dXNlcjpwYXNz', 'Bearer', 'sp_a-key-without-the-bearer-scheme'])('an Authorization header of %p is 401', async (header) => {
    const response = await stack.request('GET', '/api/v1/posts', { headers: { authorization: header } });
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('unauthenticated');
  });

  it('publishNow without the publish scope is refused and creates nothing', async () => {
    const before = await stack.eventCount();
    const response = await stack.request('POST', '/api/v1/posts', { key: keys.get('write'), body: publishNow });
    expect(response.status).toBe(403);
    expect(response.body.error).toMatchObject({ code: 'insufficient_scope', details: { missing: ['publish'] } });
    expect(await stack.eventCount()).toBe(before);
  });

  it('a revoked key is refused', async () => {
    const created = await stack.workspaces.createKey(workspaceId, ['read']);
    expect((await stack.request('GET', '/api/v1/posts', { key: created.key })).status).toBe(200);
    await stack.workspaces.revokeKey(created.id);
    await new Promise((r) => setTimeout(r, 2_100)); // the gateway caches a valid key for up to 2 s
    expect((await stack.request('GET', '/api/v1/posts', { key: created.key })).status).toBe(401);
  });

  it.each(['/api/v2/posts', '/api/posts', '/posts'])('the API lives only under /api/v1: %s is 404', async (path) => {
    const response = await stack.request('GET', path, { key: keys.get('all') });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('not_found');
  });

  it('health endpoints need no key', async () => {
    expect((await stack.request('GET', '/health/live')).status).toBe(200);
    expect((await stack.request('GET', '/health/ready')).body).toMatchObject({ status: 'ok' });
  });
});

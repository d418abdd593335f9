import { Scope } from '@app/contracts';
import { TestStack } from '../support/test-stack';

/**
 * GET /api/v1/me: who the calling key is — its workspace, its scopes, where it
 * stands under each rate limit — for any valid key. Asking counts nothing and is
 * answered while the key is refused (small limits here: 5 requests, 2 replies a minute).
 */
describe('GET /api/v1/me', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start({ apps: ['gateway'], overrides: { rateLimitGeneralPerMinute: 5, rateLimitRepliesPerMinute: 2 } });
  });
  afterAll(() => stack.stop());

  /** A workspace of its own with a key of these scopes: the key, its id and the workspace. */
  async function keyOf(scopes: Scope[]) {
    const workspace = await stack.workspaces.createWorkspace(`Acme ${Math.random().toString(36).slice(2, 8)}`);
    const key = await stack.workspaces.createKey(workspace.id, scopes);
    return { key: key.key, keyId: key.id, workspace };
  }
  const me = (key: string) => stack.request('GET', '/api/v1/me', { key });

  it.each<[Scope[]]>([[['read']], [['engage']], [['webhooks']], [['read', 'write', 'publish', 'engage', 'accounts', 'webhooks']]])('answers any valid key (scopes %j): workspace, scopes, limits', async (scopes) => {
    const { key, keyId, workspace } = await keyOf(scopes);
    const answer = await me(key);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      workspace: { id: workspace.id, name: workspace.name },
      key: { id: keyId, scopes },
      rateLimits: {
        general: { limit: 5, windowSeconds: 60, remaining: 5, resetSeconds: 0 },
        replies: { limit: 2, windowSeconds: 60, remaining: 2, resetSeconds: 0 },
      },
    });
  });

  it('counts nothing and carries no RateLimit headers: asking ten times over a limit of five leaves all five', async () => {
    const { key } = await keyOf(['read']);
    for (let i = 0; i < 10; i++) {
      const answer = await me(key);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('ratelimit-remaining')).toBeNull();
    }
    expect((await me(key)).body.rateLimits.general.remaining).toBe(5);
    expect((await stack.request('GET', '/api/v1/posts', { key })).headers.get('ratelimit-remaining')).toBe('4');
  });

  it('shows what the other requests used, as their RateLimit headers do, and is answered while the key is refused', async () => {
    const { key } = await keyOf(['read']);
    const first = await stack.request('GET', '/api/v1/posts', { key });
    const second = await stack.request('GET', '/api/v1/posts', { key });
    expect([first.headers.get('ratelimit-remaining'), second.headers.get('ratelimit-remaining')]).toEqual(['4', '3']);
    const standing = (await me(key)).body.rateLimits.general;
    expect(standing).toMatchObject({ limit: 5, remaining: 3 });
    // Its usage is back to zero once this window and the next have passed (RateLimit-Reset's meaning).
    expect(standing.resetSeconds).toBeGreaterThan(60);
    expect(standing.resetSeconds).toBeLessThanOrEqual(120);
    expect(Math.abs(standing.resetSeconds - Number(second.headers.get('ratelimit-reset')))).toBeLessThanOrEqual(1);
    for (let i = 0; i < 4; i++) await stack.request('GET', '/api/v1/posts', { key });
    const refused = await stack.request('GET', '/api/v1/posts', { key });
    expect({ status: refused.status, code: refused.body.error.code }).toEqual({ status: 429, code: 'rate_limited' });
    const limited = await me(key);
    expect(limited.status).toBe(200);
    expect(limited.body.rateLimits.general).toMatchObject({ limit: 5, remaining: 0 });
    expect(limited.body.rateLimits.replies).toEqual({ limit: 2, windowSeconds: 60, remaining: 2, resetSeconds: 0 });
  });

  it('refuses a missing, unknown or revoked key with unauthenticated', async () => {
    const { key, keyId } = await keyOf(['read']);
    await stack.workspaces.revokeKey(keyId);
    for (const answer of [await stack.request('GET', '/api/v1/me'), await me('sp_unknown'), await me(key)]) {
      expect({ status: answer.status, code: answer.body.error.code }).toEqual({ status: 401, code: 'unauthenticated' });
    }
  });
});

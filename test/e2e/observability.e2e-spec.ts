import { Logger } from '@nestjs/common';
import { JsonLogger } from '@app/observability';
import { TestStack, tokenOf } from '../support/test-stack';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One publishNow request followed through the logs of every service it touches,
 * the metrics it leaves behind, and no secret in any line.
 */
describe('observability across the services', () => {
  let stack: TestStack;
  const lines: string[] = [];
  const parsed = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);

  beforeAll(async () => {
    stack = await TestStack.start({ sandbox: true, overrides: { publishWaitMs: 8_000 } });
    // TestStack starts the apps silent; Nest's logger is process-wide, so this captures every app's lines.
    Logger.overrideLogger(new JsonLogger({ levels: ['log', 'warn', 'error', 'fatal'], destination: { write: (line: string) => void lines.push(line) } }));
  });
  afterAll(async () => {
    Logger.overrideLogger(false);
    await stack.stop();
  });

  async function untilLogged(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    for (let i = 0; i < 250; i++) {
      const found = parsed().find(match);
      if (found) return found;
      await sleep(20);
    }
    throw new Error('no such log line');
  }

  it('a publishNow request id appears in the gateway, posts and publisher lines, and comes back on the response', async () => {
    const { key, workspaceId } = await stack.workspace();
    const account = await stack.connect(workspaceId, 'mastodon', `@obs${Math.random().toString(36).slice(2, 8)}`);
    const requestId = `obs-${Date.now()}`;
    const response = await stack.request('POST', '/api/v1/posts', {
      key,
      headers: { 'x-request-id': requestId },
      body: { content: 'Hello observers', accounts: [account.id], publishNow: true },
    });
    expect(response.status).toBe(201);
    expect(response.body.post.status).toBe('published');
    expect(response.headers.get('x-request-id')).toBe(requestId);

    const ofRequest = (context: string, extra: Record<string, unknown> = {}) => (l: Record<string, unknown>) =>
      l.requestId === requestId && l.context === context && Object.entries(extra).every(([k, v]) => l[k] === v);
    await untilLogged(ofRequest('HTTP', { method: 'POST', route: '/api/v1/posts', status: 201 }));
    await untilLogged(ofRequest('Commands:posts', { command: 'posts.create', outcome: 'ok' }));
    await untilLogged(ofRequest('Events:publisher', { type: 'PublishRequested', outcome: 'ok' }));
    // The publisher's own commands back to posts carry the id it received with the event.
    await untilLogged(ofRequest('Commands:posts', { command: 'posts.record-account-outcome' }));

    // Secrets: the API key, the platform token the publisher used, the token encryption key.
    const text = lines.join('\n');
    for (const secret of [key, tokenOf(account.handle), stack.config.tokenEncryptionKey.toString('base64')]) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/sp_[A-Za-z0-9_-]{8,}/);
  });

  it('a request without an id gets one, on the response and in its lines', async () => {
    const response = await fetch(`${stack.baseUrl}/api/v1/posts`, { headers: { authorization: 'Bearer sp_not_a_real_key_123456' } });
    expect(response.status).toBe(401);
    const requestId = response.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    await untilLogged((l) => l.requestId === requestId && l.context === 'HTTP' && l.status === 401);
    expect(lines.join('\n')).not.toContain('sp_not_a_real_key_123456');
  });

  it("the client's trace context is stored with the events it caused, so JetStream consumers continue the trace", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const { workspaceId, key } = await stack.workspace();
    await stack.connect(workspaceId, 'x', '@traced');
    const created = await stack.request('POST', '/api/v1/posts', {
      key,
      body: { content: 'traced', accounts: ['x:@traced'] },
      headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    });
    expect(created.status).toBe(201);
    const { rows } = await stack.db.pool.query<{ metadata: { traceparent?: string } }>('SELECT metadata FROM events WHERE stream_id = $1', [`post-${created.body.post.id}`]);
    expect(rows[0].metadata.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-0[01]$`));
  });

  it('GET /metrics answers the Prometheus text with the named metrics, without an API key', async () => {
    const response = await fetch(`${stack.baseUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(text).toMatch(/^http_request_duration_seconds_count\{method="POST",route="\/api\/v1\/posts",status="201"\} [1-9]/m);
    expect(text).toMatch(/^commands_handled_total\{command="posts.create",outcome="ok"\} [1-9]/m);
    expect(text).toMatch(/^events_appended_total\{type="PostCreated"\} [1-9]/m);
    expect(text).toMatch(/^events_relayed_total\{type="PostCreated"\} [1-9]/m);
    expect(text).toMatch(/^events_handled_total\{consumer="publisher",type="PublishRequested",outcome="ok"\} [1-9]/m);
    expect(text).toMatch(/^publish_outcomes_total\{platform="mastodon",outcome="published",code=""\} 1$/m);
    expect(text).toMatch(/^feed_lag_events\{processor="relay:jetstream"\} \d+$/m);
    expect(text).toMatch(/^feed_lag_seconds\{processor="post_views"\} [\d.]+$/m);
    expect(text).toContain('# TYPE event_redeliveries_total counter');
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
  });
});

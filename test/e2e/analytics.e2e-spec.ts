import { AccountItemMetrics, ItemMetrics, METRIC_NAMES, Platform, PLATFORMS } from '@app/contracts';
import { documentedConsent } from '@app/platform-sandbox';
import { MetricsCollector } from '../../apps/analytics/src/collect/metrics-collector';
import { rebuildProjections } from '../../apps/projector/src/rebuild/rebuild-projections';
import { RateLimitBackoff } from '../../apps/analytics/src/collect/rate-limit-backoff';
import { ANALYTICS_ONLY_SCOPES } from '@app/platforms';
import { connectSandboxAccount } from '../../tools/local/connect-sandbox-account';
import { TestStack, tokenOf } from '../support/test-stack';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * Issue 24 through HTTP: a post published to every platform on the sandbox has its numbers
 * collected on the (fast) schedule, sees them grow when the sandbox's clock moves, and keeps
 * their history; a refusal (missing scope) is recorded and stops no one else; a 429 pauses
 * only the account it hit; the charts are SVG; bad queries are refused.
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The sum of the numbers the platform gave: grows when any of them does. */
const total = (metrics: ItemMetrics | null) => METRIC_NAMES.reduce((sum, name) => sum + (metrics?.[name] ?? 0), 0);

describe('analytics', () => {
  let stack: TestStack;
  let key: string;
  let workspaceId: string;
  let postId: string;
  const accounts = new Map<Platform, { id: string; token: string }>();
  const sandbox = () => stack.sandbox!.control;
  /** Endpoints of the workspace: one names post.metrics_updated, the other only post.published. */
  let optedIn: WebhookReceiver;
  let notOptedIn: WebhookReceiver;

  async function metricsOf(id: string, history = false): Promise<AccountItemMetrics[]> {
    const answer = await stack.request('GET', `/api/v1/posts/${id}/metrics${history ? '?history=1' : ''}`, { key });
    expect(answer.status).toBe(200);
    return answer.body.accounts;
  }

  async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(100);
    }
  }

  async function publish(refs: string[], content: string): Promise<string> {
    const clip = `${stack.sandbox!.mediaUrl}/media/clip.mp4?bytes=200000&seconds=10`;
    const created = await stack.request('POST', '/api/v1/posts', { key, body: { content, mediaUrls: [clip], accounts: refs, publishNow: true } });
    expect([201, 202]).toContain(created.status);
    const id = created.body.post.id as string;
    const post = await until(`post ${id} to end`, async () => {
      const { body } = await stack.request('GET', `/api/v1/posts/${id}`, { key });
      return body.post.status !== 'publishing' && body.post;
    });
    expect(post.results.filter((r: { success: boolean }) => !r.success)).toEqual([]);
    return id;
  }

  beforeAll(async () => {
    [optedIn, notOptedIn] = [await WebhookReceiver.start(), await WebhookReceiver.start()];
    stack = await TestStack.start({
      sandbox: true,
      overrides: {
        webhookAllowedHosts: [optedIn.host, notOptedIn.host],
        webhookDispatchIntervalMs: 200,
        webhookTimeoutMs: 1_000,
        // The collector's tick and the schedule made fast: the first collection at once, then every 300 ms.
        analyticsTickMs: 100,
        analyticsSchedule: { firstAfterMs: 0, steps: [{ everyMs: 300, untilMs: 24 * 3_600_000 }] },
        analyticsFollowersIntervalMs: 300,
      },
    });
    ({ key, workspaceId } = await stack.workspace(['read', 'write', 'publish', 'webhooks']));
    for (const [receiver, events] of [[optedIn, ['post.metrics_updated']], [notOptedIn, ['post.published']]] as const) {
      const endpoint = await stack.request('POST', '/api/v1/webhooks', { key, body: { url: receiver.url, events } });
      expect(endpoint.status).toBe(201);
      receiver.secrets = [endpoint.body.secret];
    }
    for (const platform of PLATFORMS) {
      const connected = await stack.connect(workspaceId, platform, `@metrics-${platform}`, platform === 'pinterest' ? { boardId: 'board-metrics' } : undefined);
      accounts.set(platform, { id: connected.id, token: tokenOf(connected.handle) });
    }
    postId = await publish([...accounts.values()].map((a) => a.id), 'How did it do?');
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await optedIn?.close();
    await notOptedIn?.close();
  });
  afterEach(() => sandbox().clearFaults());

  describe.each(PLATFORMS)('%s', (platform) => {
    it('collects the numbers of the published item, sees them grow with the clock, and keeps the history', async () => {
      const accountId = accounts.get(platform)!.id;
      const first = await until(`${platform} numbers`, async () => (await metricsOf(postId)).find((a) => a.accountId === accountId && a.metrics !== null));
      expect(first).toMatchObject({ platform, error: null, collectedAt: expect.any(String) });
      // One vocabulary: every name present, each a count or null (never absent).
      expect(Object.keys(first.metrics!).sort()).toEqual([...METRIC_NAMES].sort());
      sandbox().advanceClock(15 * 60);
      const grown = await until(`${platform} numbers to grow`, async () => {
        const entry = (await metricsOf(postId, true)).find((a) => a.accountId === accountId)!;
        return total(entry.metrics) > total(first.metrics) && entry;
      });
      expect(grown.history!.length).toBeGreaterThanOrEqual(2);
      const totals = grown.history!.map((point) => total(point.metrics));
      expect(totals).toEqual([...totals].sort((a, b) => a - b));
      expect(new Date(grown.collectedAt!).getTime()).toBeGreaterThan(new Date(first.collectedAt!).getTime());
    });

    it("collects the account's follower count over time", async () => {
      const accountId = accounts.get(platform)!.id;
      const view = await until(`${platform} followers`, async () => {
        const { body } = await stack.request('GET', `/api/v1/analytics/accounts/${accountId}`, { key });
        return body.history?.length >= 2 && body;
      });
      expect(view).toMatchObject({ accountId, platform, followers: expect.any(Number) });
      expect(view.totals.posts).toBe(1);
    });
  });

  it('sends post.metrics_updated, signed, to the endpoint that names it, and never to one that does not', async () => {
    const updates = () => optedIn.delivered.filter((r) => r.payload.type === 'post.metrics_updated' && r.payload.data.postId === postId);
    await until('post.metrics_updated deliveries', async () => updates().length >= PLATFORMS.length);
    for (const update of updates()) {
      expect(update.verified).toBe(true);
      expect(update.payload.data).toEqual({
        postId,
        accountId: expect.any(String),
        platform: expect.any(String),
        platformPostId: expect.any(String),
        metrics: expect.any(Object),
        changed: expect.arrayContaining([expect.any(String)]),
        observedAt: expect.any(String),
      });
      expect(Object.keys(update.payload.data.metrics).sort()).toEqual([...METRIC_NAMES].sort());
    }
    expect(new Set(updates().map((u) => u.payload.data.platform))).toEqual(new Set(PLATFORMS));
    await until('post.published on the other endpoint', async () => notOptedIn.delivered.some((r) => r.payload.type === 'post.published'));
    expect(notOptedIn.delivered.filter((r) => r.payload.type === 'post.metrics_updated')).toEqual([]);
  });

  it('shows the summary in the posts list, ranks the items, and draws the curves as SVG', async () => {
    const list = await stack.request('GET', '/api/v1/posts', { key });
    const listed = list.body.posts.find((p: { id: string }) => p.id === postId);
    expect(listed.metrics).toEqual({ likes: expect.any(Number), comments: expect.any(Number), shares: expect.any(Number), impressions: expect.any(Number) });

    const top = await stack.request('GET', '/api/v1/analytics/posts?sort=impressions&limit=50', { key });
    expect(top.status).toBe(200);
    const impressions = top.body.items.map((i: { metrics: ItemMetrics }) => i.metrics.impressions ?? -1);
    expect(impressions).toEqual([...impressions].sort((a: number, b: number) => b - a));
    const onX = await stack.request('GET', `/api/v1/analytics/posts?platform=x&accountId=${accounts.get('x')!.id}`, { key });
    expect(onX.body.items.map((i: { platform: string }) => i.platform)).toEqual(['x']);

    const chart = await stack.requestText('GET', `/api/v1/posts/${postId}/metrics.svg?metric=likes`, { key });
    expect(chart.status).toBe(200);
    expect(chart.contentType).toMatch(/^image\/svg\+xml/);
    expect(chart.text).toContain('<title id="chart-title">likes of post');
    expect(chart.text.match(/<polyline /g)!.length).toBeGreaterThanOrEqual(5);
    const followers = await stack.requestText('GET', `/api/v1/analytics/accounts/${accounts.get('mastodon')!.id}/followers.svg`, { key });
    expect(followers.status).toBe(200);
    expect(followers.text).toContain('<polyline ');
  });

  it('records a missing analytics scope as a collection error on that account, and collects the others', async () => {
    const handle = '@metrics-no-insights';
    const noInsights = await connectSandboxAccount(stack.accounts, stack.sandbox!, {
      workspaceId,
      platform: 'facebook',
      handle,
      key: tokenOf(handle),
      scopes: documentedConsent('facebook').filter((scope) => !ANALYTICS_ONLY_SCOPES.facebook.includes(scope)),
    });
    const id = await publish([noInsights.id, accounts.get('mastodon')!.id], 'Connected before analytics');
    const both = await until('the refusal and the other account numbers', async () => {
      const entries = await metricsOf(id);
      const refused = entries.find((a) => a.accountId === noInsights.id);
      const other = entries.find((a) => a.accountId === accounts.get('mastodon')!.id);
      return refused?.error && other?.metrics && { refused, other };
    });
    expect(both.refused).toMatchObject({ metrics: null, error: { code: 'insufficient_platform_scope' } });
    // Recorded once, not every pass; the account still publishes (not needs_reauth).
    await sleep(1_000);
    const { rows } = await stack.db.pool.query(`SELECT count(*)::int AS n FROM events WHERE type = 'ItemMetricsCollectionFailed' AND data->>'accountId' = $1`, [noInsights.id]);
    expect(rows[0].n).toBe(1);
    expect((await stack.accounts.get(noInsights.id))!.status).toBe('connected');
  });

  it("pauses a rate-limited account for the wait the platform named, and goes on with the others'", async () => {
    const limited = accounts.get('mastodon')!;
    const other = accounts.get('bluesky')!;
    sandbox().addFault({ platform: 'mastodon', account: limited.token, operation: 'metrics', times: 1, fault: { type: 'rate_limit', resetAfterSeconds: 60 } });
    await until('the 429', async () => sandbox().requestCount({ account: limited.token, operation: 'metrics' }) > 0 && sandbox().faults().length === 0);
    const callsAfter429 = sandbox().requestCount({ account: limited.token, operation: 'metrics' });
    const otherBefore = (await metricsOf(postId)).find((a) => a.accountId === other.id)!.collectedAt;
    await sleep(2_000);
    // The collector holds the wait itself (the call failed at once rather than sleeping 60 s inside the connector).
    expect(stack.app('analytics').get(MetricsCollector).backoff.isPaused(RateLimitBackoff.key('mastodon', limited.id), Date.now() + 50_000)).toBe(true);
    // No further call for the limited account inside the wait; the other account kept being collected.
    expect(sandbox().requestCount({ account: limited.token, operation: 'metrics' })).toBe(callsAfter429);
    expect((await metricsOf(postId)).find((a) => a.accountId === other.id)!.collectedAt).not.toBe(otherBefore);
  });

  it("leaves an item its platform failed to answer (an outage) for its next slot, records no refusal, and holds back no other account's", async () => {
    const down = accounts.get('bluesky')!;
    const other = accounts.get('x')!;
    const collectedAt = async (accountId: string) => (await metricsOf(postId)).find((a) => a.accountId === accountId)!.collectedAt;
    const callsBefore = sandbox().requestCount({ account: down.token, operation: 'metrics' });
    sandbox().addFault({ platform: 'bluesky', account: down.token, operation: 'metrics', times: 'always', fault: { type: 'error', status: 503, message: 'down' } });
    await until('a failed call', async () => sandbox().requestCount({ account: down.token, operation: 'metrics' }) > callsBefore + 1);
    await sleep(300);
    const [downBefore, otherBefore] = [await collectedAt(down.id), await collectedAt(other.id)];
    await sleep(1_500);
    expect(await collectedAt(down.id)).toBe(downBefore);
    expect(await collectedAt(other.id)).not.toBe(otherBefore);
    const { rows } = await stack.db.pool.query(`SELECT count(*)::int AS n FROM events WHERE type = 'ItemMetricsCollectionFailed' AND data->>'accountId' = $1`, [down.id]);
    expect(rows[0].n).toBe(0);
    sandbox().clearFaults();
    await until('collection after the outage', async () => (await collectedAt(down.id)) !== downBefore);
  });

  it('rebuilds the analytics read models alone (--only), to the same answers', async () => {
    // Collection stopped, and the read models settled, so that the answers before and after compare.
    await stack.stopApp('analytics');
    try {
      const answers = async () => ({ metrics: await metricsOf(postId, true), top: (await stack.request('GET', '/api/v1/analytics/posts?limit=50', { key })).body });
      let before = await answers();
      for (let settled = false; !settled; ) {
        await sleep(500);
        const again = await answers();
        settled = JSON.stringify(again) === JSON.stringify(before);
        before = again;
      }
      await stack.db.pool.query('DELETE FROM post_metric_observations; UPDATE post_metrics SET likes = 0');
      const reports = await rebuildProjections({ pool: stack.db.pool, databaseUrl: stack.db.url, only: ['post_metrics', 'account_metrics'] });
      expect(reports.map((r) => r.readModel)).toEqual(['post_metrics', 'account_metrics']);
      expect(await answers()).toEqual(before);
    } finally {
      await stack.startApp('analytics');
    }
  });

  it.each([
    ['/api/v1/analytics/posts?sort=popularity', 400, 'invalid_query'],
    ['/api/v1/analytics/posts?from=2026-05-04&to=2026-05-01', 400, 'invalid_query'],
    ['/api/v1/analytics/posts?color=red', 400, 'unknown_query_parameter'],
    ['/api/v1/posts/not-a-uuid/metrics', 404, 'not_found'],
    ['/api/v1/posts/0199a000-0000-7000-8000-000000000000/metrics', 404, 'not_found'],
    ['/api/v1/analytics/accounts/0199a000-0000-7000-8000-000000000000', 404, 'not_found'],
    ['/api/v1/posts/0199a000-0000-7000-8000-000000000000/metrics.svg?metric=hearts', 400, 'invalid_query'],
  ])('refuses %s with %d %s', async (path, status, code) => {
    const answer = await stack.request('GET', path, { key });
    expect([answer.status, answer.body.error.code]).toEqual([status, code]);
  });

  it('answers only with the read scope', async () => {
    const { key: writeOnly } = await stack.workspace(['write']);
    const answer = await stack.request('GET', `/api/v1/analytics/posts`, { key: writeOnly });
    expect([answer.status, answer.body.error.code]).toEqual([403, 'insufficient_scope']);
  });
});

import { INSUFFICIENT_PLATFORM_SCOPE, METRIC_NAMES, type ItemMetrics, type MetricName, type Platform } from '@app/contracts';
import type { SandboxIdentity } from '@app/platform-sandbox';
import { PlatformAuthRegistry } from '../auth/auth-registry';
import type { ConnectorAccount, PublishRequest } from '../connector';
import { PlatformCallFailed } from '../http/platform-http';
import { ANALYTICS_ONLY_SCOPES } from '../scopes';
import { mediaAccount, mediaPost, mediaSandbox, mediaUrl } from './media.test-support';

/**
 * Every connector's metrics against the sandbox, which plays each platform's metrics endpoints as
 * documented with numbers that grow with the item's age on the sandbox's clock: publish through
 * the connector, read the item's and the account's numbers, move the clock, read larger ones.
 * Each platform gives its own set of the vocabulary (numbers) and null for the rest (never 0):
 * the table below is the README's "Analytics: the vocabulary". A token without the scope the
 * metrics call needs is `insufficient_platform_scope` (the account still publishes), and a
 * throttled metrics call is retryable with the wait the platform named.
 */
interface MetricsCase {
  platform: Platform;
  kind?: SandboxIdentity['kind'];
  platformAccountId?: string;
  attributes?: Record<string, string>;
  post: () => PublishRequest;
  /** The metrics the platform gives; every other one must read null. */
  given: MetricName[];
  /** The metric that must grow strictly when the clock moves. */
  headline: MetricName;
  /** Scopes taken away for the refusal (an analytics-only one where the platform has one); none: the platform has no scopes (Bluesky). */
  withheld: readonly string[];
  /** Whether the account's followers reading needs the withheld scope too (else it still works without it). */
  followersNeedWithheld: boolean;
  /** Whether the platform's throttling answer names a wait (Threads' X-App-Usage tells only percentages). */
  namesWait: boolean;
}

const env = mediaSandbox();
const photo = () => mediaUrl(env, 'photo.jpg');
const clip = () => mediaUrl(env, 'clip.mp4');
const auth = new PlatformAuthRegistry();

const CASES: MetricsCase[] = [
  {
    platform: 'x', platformAccountId: '2244994945', post: () => mediaPost('Numbers please'),
    given: ['impressions', 'likes', 'comments', 'shares', 'saves'], headline: 'likes', withheld: ['users.read'], followersNeedWithheld: true, namesWait: true,
  },
  {
    platform: 'facebook', kind: 'page', platformAccountId: '1040001', post: () => mediaPost('Numbers please'),
    given: ['impressions', 'reach', 'likes', 'comments', 'shares', 'clicks'], headline: 'impressions', withheld: ANALYTICS_ONLY_SCOPES.facebook, followersNeedWithheld: false, namesWait: true,
  },
  {
    platform: 'instagram', kind: 'instagram', platformAccountId: '17841400000001', post: () => mediaPost('Numbers please', [photo()]),
    given: ['impressions', 'reach', 'likes', 'comments', 'shares', 'saves'], headline: 'reach', withheld: ANALYTICS_ONLY_SCOPES.instagram, followersNeedWithheld: false, namesWait: true,
  },
  {
    platform: 'threads', platformAccountId: '7001', post: () => mediaPost('Numbers please'),
    given: ['impressions', 'likes', 'comments', 'shares'], headline: 'likes', withheld: ANALYTICS_ONLY_SCOPES.threads, followersNeedWithheld: true, namesWait: false,
  },
  {
    platform: 'linkedin', kind: 'organization', platformAccountId: 'urn:li:organization:1001', post: () => mediaPost('Numbers please'),
    given: ['impressions', 'reach', 'likes', 'comments', 'shares', 'clicks'], headline: 'impressions', withheld: ['rw_organization_admin'], followersNeedWithheld: true, namesWait: true,
  },
  {
    platform: 'bluesky', platformAccountId: 'did:plc:brand', post: () => mediaPost('Numbers please'),
    given: ['likes', 'comments', 'shares'], headline: 'likes', withheld: [], followersNeedWithheld: false, namesWait: true,
  },
  {
    platform: 'mastodon', post: () => mediaPost('Numbers please'),
    given: ['likes', 'comments', 'shares'], headline: 'likes', withheld: ['read:statuses', 'read:accounts'], followersNeedWithheld: true, namesWait: true,
  },
  {
    platform: 'tiktok', post: () => mediaPost('Watch this', [clip()]),
    given: ['likes', 'comments', 'shares', 'videoViews'], headline: 'videoViews', withheld: ['video.list', 'user.info.stats'], followersNeedWithheld: true, namesWait: true,
  },
  {
    platform: 'youtube', post: () => mediaPost('Launch video\nAll the details', [clip()]),
    given: ['likes', 'comments', 'videoViews'], headline: 'videoViews', withheld: ['https://www.googleapis.com/auth/youtube.force-ssl'], followersNeedWithheld: true, namesWait: true,
  },
  {
    platform: 'pinterest', attributes: { boardId: 'board-42' }, post: () => mediaPost('Pin this', [photo()]),
    given: ['impressions', 'saves', 'clicks', 'videoViews'], headline: 'impressions', withheld: ['pins:read'], followersNeedWithheld: false, namesWait: true,
  },
];

function account(testCase: MetricsCase, scopes: readonly string[]): ConnectorAccount {
  return mediaAccount(env, testCase.platform, { kind: testCase.kind, platformAccountId: testCase.platformAccountId, attributes: testCase.attributes, scopes: [...scopes] });
}

async function publish(testCase: MetricsCase, connectorAccount: ConnectorAccount): Promise<string> {
  const outcome = await env.connectors.get(testCase.platform).publish(connectorAccount, testCase.post());
  expect(outcome).toMatchObject({ status: 'published' });
  if (outcome.status !== 'published') throw new Error('not published');
  return outcome.platformPostId;
}

async function refusal(call: Promise<unknown>): Promise<PlatformCallFailed> {
  const thrown = await call.then(
    () => null,
    (error: unknown) => error,
  );
  expect(thrown).toBeInstanceOf(PlatformCallFailed);
  return thrown as PlatformCallFailed;
}

/** The metrics that are numbers, and the ones that are null: each must be one or the other, and never 0 for "not given". */
function shapeOf(metrics: ItemMetrics): { numbers: MetricName[]; nulls: MetricName[] } {
  for (const name of METRIC_NAMES) expect(metrics[name] === null || (Number.isInteger(metrics[name]) && (metrics[name] as number) >= 0)).toBe(true);
  return { numbers: METRIC_NAMES.filter((name) => metrics[name] !== null), nulls: METRIC_NAMES.filter((name) => metrics[name] === null) };
}

describe.each(CASES)('$platform', (testCase) => {
  const { platform } = testCase;
  const signInScopes = () => auth.get(platform).scopes;

  it('reads an item and the account in the one vocabulary, and the numbers grow with the clock', async () => {
    const connector = env.connectors.get(platform);
    const owner = account(testCase, signInScopes());
    const postId = await publish(testCase, owner);

    const first = await connector.fetchItemMetrics(owner, postId);
    expect(shapeOf(first.metrics)).toEqual({ numbers: testCase.given, nulls: METRIC_NAMES.filter((name) => !testCase.given.includes(name)) });
    expect(Object.keys(first.raw).length).toBeGreaterThan(0);
    const followersBefore = await connector.fetchAccountMetrics(owner);
    expect(followersBefore.followers).toEqual(expect.any(Number));

    env.sandbox.control.advanceClock(20 * 60);

    const later = await connector.fetchItemMetrics(owner, postId);
    expect(shapeOf(later.metrics).numbers).toEqual(testCase.given);
    for (const name of testCase.given) expect(later.metrics[name]!).toBeGreaterThanOrEqual(first.metrics[name]!);
    expect(later.metrics[testCase.headline]!).toBeGreaterThan(first.metrics[testCase.headline]!);
    const followersAfter = await connector.fetchAccountMetrics(owner);
    expect(followersAfter.followers!).toBeGreaterThan(followersBefore.followers!);
    // The calls were the metrics operation the sandbox's faults select.
    expect(env.sandbox.control.requestCount({ platform, account: owner.accountId, operation: 'metrics' })).toBeGreaterThanOrEqual(2);
  });

  it('answers insufficient_platform_scope, not retryable, to a token without the scope the metrics call needs; the account still publishes', async () => {
    if (testCase.withheld.length === 0) {
      // Bluesky: an app password's session has no scopes; its metrics endpoints need none.
      expect(auth.get(platform).scopes).toEqual([]);
      return;
    }
    const connector = env.connectors.get(platform);
    const owner = account(testCase, signInScopes().filter((scope) => !testCase.withheld.includes(scope)));
    const postId = ANALYTICS_ONLY_SCOPES[platform].some((scope) => testCase.withheld.includes(scope)) ? await publish(testCase, owner) : await publish(testCase, account(testCase, signInScopes()));
    const refused = await refusal(connector.fetchItemMetrics(owner, postId));
    expect(refused.error).toMatchObject({ code: INSUFFICIENT_PLATFORM_SCOPE, retryable: false });
    if (testCase.followersNeedWithheld) {
      expect((await refusal(connector.fetchAccountMetrics(owner))).error).toMatchObject({ code: INSUFFICIENT_PLATFORM_SCOPE, retryable: false });
    } else {
      expect((await connector.fetchAccountMetrics(owner)).followers).toEqual(expect.any(Number));
    }
  });

  it('answers a throttled metrics call as retryable rate_limited, with the wait the platform named', async () => {
    const connector = env.impatient.get(platform);
    const owner = account(testCase, signInScopes());
    const postId = await publish(testCase, owner);
    env.sandbox.control.addFault({ platform, account: owner.accountId, operation: 'metrics', times: 'always', fault: { type: 'rate_limit', resetAfterSeconds: 600 } });
    try {
      const refused = await refusal(connector.fetchItemMetrics(owner, postId));
      expect(refused.error).toMatchObject({ code: 'rate_limited', retryable: true });
      if (testCase.namesWait) {
        expect(refused.error.retryAfterMs).toBeGreaterThanOrEqual(590_000);
        expect(refused.error.retryAfterMs).toBeLessThanOrEqual(900_000);
      } else {
        expect(refused.error.retryAfterMs).toBeUndefined();
      }
    } finally {
      env.sandbox.control.clearFaults();
    }
  });
});

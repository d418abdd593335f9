import { mediaRefs } from '@app/media';
import type { Platform } from '@app/contracts';
import { RunningPlatformSandbox, startPlatformSandbox, provisionConnectorAccount, type SandboxIdentity } from '@app/platform-sandbox';
import type { ConnectorAccount, PublishRequest } from '../connector';
import { sandboxEndpoints } from '../endpoints';
import { ConnectorRegistry } from '../registry';

/**
 * Graph error handling against the sandbox, from Meta's "Rate Limits"
 * (https://developers.facebook.com/docs/graph-api/overview/rate-limiting) and "Handling Errors"
 * (https://developers.facebook.com/docs/graph-api/guides/error-handling) pages:
 * - a throttled app is not hammered: Pages (80001) and Instagram (80002) name the wait in
 *   X-Business-Use-Case-Usage (`estimated_time_to_regain_access`, minutes), which is honoured
 *   once when within the policy's maxRateLimitWaitMs, else the call fails at once, retryable;
 * - a refused token (190) is access_token_expired only with the Expired subcode 463, else
 *   access_token_invalid (revoked, unknown).
 * Retry delays are recorded, not slept.
 */

const DAY = 86_400;
const MAX_RATE_LIMIT_WAIT_MS = 60_000;

let sandbox: RunningPlatformSandbox;
let connectors: ConnectorRegistry;
const sleeps: number[] = [];
let sequence = 0;
/** A photo on the sandbox's media host, which Instagram pulls (and the connector fetches first, through the media pipeline). */
const photo = (): string => `${sandbox.mediaUrl}/media/photo.jpg`;

beforeAll(async () => {
  sandbox = await startPlatformSandbox();
  connectors = new ConnectorRegistry({
    endpoints: sandboxEndpoints(sandbox.url),
    retry: { baseDelayMs: 1, maxDelayMs: 4, maxRateLimitWaitMs: MAX_RATE_LIMIT_WAIT_MS, requestTimeoutMs: 2_000, sleep: async (ms) => void sleeps.push(ms) },
    media: { allowedHosts: [new URL(sandbox.mediaUrl).host] },
  });
});

afterAll(async () => {
  await sandbox.close();
});

beforeEach(() => {
  sleeps.length = 0;
});

const CASES: Array<{ platform: Platform; kind: 'page' | 'instagram'; request: () => PublishRequest; operation: string }> = [
  { platform: 'facebook', kind: 'page', request: () => post('Hello page'), operation: 'publish' },
  { platform: 'instagram', kind: 'instagram', request: () => post('A caption', [photo()]), operation: 'container' },
];

function post(content: string, mediaUrls: string[] = []): PublishRequest {
  return { content, media: mediaRefs(mediaUrls), idempotencyKey: `post-${++sequence}` };
}

function accountOn(platform: Platform, kind: SandboxIdentity['kind']): ConnectorAccount {
  const { accountId, identity, credentials } = provisionConnectorAccount(sandbox, { platform, handle: '@brand', key: `meta-${++sequence}`, kind });
  return { accountId, platform, identity, credentials };
}

describe.each(CASES)('$platform throttling', ({ platform, kind, request, operation }) => {
  const calls = (account: ConnectorAccount) => sandbox.control.requestCount({ platform, account: account.accountId, operation });

  it('fails at once, retryable, when the wait named is beyond the policy (no hammering)', async () => {
    const account = accountOn(platform, kind);
    sandbox.control.addFault({ platform, account: account.accountId, operation, fault: { type: 'rate_limit', resetAfterSeconds: 120 } });
    const outcome = await connectors.get(platform).publish(account, request());
    expect(outcome).toEqual({ status: 'failed', error: { code: 'rate_limited', message: expect.stringContaining('too many calls'), retryable: true } });
    expect(calls(account)).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('waits the minutes the usage header names, once, then goes on', async () => {
    const account = accountOn(platform, kind);
    sandbox.control.addFault({ platform, account: account.accountId, operation, fault: { type: 'rate_limit', resetAfterSeconds: 30 } });
    const outcome = await connectors.get(platform).publish(account, request());
    expect(outcome.status).toBe('published');
    expect(calls(account)).toBe(2);
    expect(sleeps).toEqual([60_000]);
  });
});

it('Threads names no wait when throttled: the call is not retried, and fails retryable', async () => {
  const account = accountOn('threads', 'user');
  sandbox.control.addFault({ platform: 'threads', account: account.accountId, operation: 'container', times: 'always', fault: { type: 'rate_limit' } });
  const outcome = await connectors.get('threads').publish(account, post('Hello threads'));
  expect(outcome).toEqual({ status: 'failed', error: { code: 'rate_limited', message: 'User request limit reached', retryable: true } });
  expect(sandbox.control.requestCount({ platform: 'threads', account: account.accountId })).toBe(1);
  expect(sleeps).toEqual([]);
});

describe('a refused token', () => {
  it('is access_token_expired when Graph says it expired (190, subcode 463)', async () => {
    const account = accountOn('instagram', 'instagram');
    sandbox.control.advanceClock(61 * DAY);
    const outcome = await connectors.get('instagram').publish(account, post('Too late', [photo()]));
    expect(outcome).toEqual({ status: 'failed', error: { code: 'access_token_expired', message: 'Error validating access token: Session has expired.', retryable: false } });
  });

  it('is access_token_invalid when the user revoked it (190, subcode 458)', async () => {
    const account = accountOn('facebook', 'page');
    sandbox.control.revokeAccount(account.accountId);
    const outcome = await connectors.get('facebook').publish(account, post('Revoked'));
    expect(outcome).toEqual({ status: 'failed', error: { code: 'access_token_invalid', message: expect.stringContaining('not authorized'), retryable: false } });
  });

  it('is access_token_invalid when Graph cannot read it (190 without a subcode)', async () => {
    const account = accountOn('threads', 'user');
    const outcome = await connectors.get('threads').publish({ ...account, credentials: { accessToken: 'not-a-token' } }, post('Who am I'));
    expect(outcome).toEqual({ status: 'failed', error: { code: 'access_token_invalid', message: 'Invalid OAuth access token - Cannot parse access token', retryable: false } });
  });
});

it('names an object Graph does not find (100, subcode 33) object_not_found, not a bad parameter', async () => {
  const account = accountOn('facebook', 'page');
  // Graph's "Object with ID ... does not exist" (Handling Errors page, https://developers.facebook.com/docs/graph-api/guides/error-handling).
  sandbox.control.addFault({ platform: 'facebook', account: account.accountId, operation: 'comment', fault: { type: 'error', status: 400, code: '100/33', message: "Unsupported post request. Object with ID '404' does not exist" } });
  const missing = await connectors.get('facebook').comment(account, { kind: 'post', platformPostId: '404' }, 'hello', 'k');
  expect(missing).toEqual({ status: 'failed', error: { code: 'object_not_found', message: "Unsupported post request. Object with ID '404' does not exist", retryable: false } });
});

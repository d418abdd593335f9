import { mediaRefs } from '@app/media';
import type { Platform } from '@app/contracts';
import { startPlatformSandbox, RunningPlatformSandbox, type FaultSpec, type SandboxIdentity, provisionConnectorAccount } from '@app/platform-sandbox';
import type { ConnectorAccount, PublishRequest } from './connector';
import { sandboxEndpoints } from './endpoints';
import { ConnectorRegistry } from './registry';

/**
 * Every connector against the platform sandbox (started in process on a free port).
 * Retry delays are recorded, not slept, so the whole file runs in a few seconds.
 */

interface PlatformCase {
  platform: Platform;
  platformAccountId?: string;
  kind?: SandboxIdentity['kind'];
  attributes?: Record<string, string>;
  /** A request the platform accepts. */
  valid: (sandboxUrl: string) => PublishRequest;
  /** A request over the platform's text limit (with valid media where required). */
  tooLong: (sandboxUrl: string) => PublishRequest;
  /** True when a text-only post must fail with media_required. */
  needsMedia: boolean;
  url: RegExp;
  /** An injected error and what the connector must make of it. */
  error: { fault: FaultSpec & { type: 'error' }; code: string; retryable: boolean };
  /** False for platforms whose public API has no comments (TikTok, Pinterest). */
  comments: boolean;
  /** False where a throttled answer names no wait (Threads: usage percentages only), so it is not retried. */
  throttleNamesWait?: false;
}

const text = (length: number): string => 'a'.repeat(length);
const post = (content: string, mediaUrls: string[] = []): PublishRequest => ({ content, media: mediaRefs(mediaUrls), idempotencyKey: `post-${Math.random()}` });

const CASES: PlatformCase[] = [
  {
    platform: 'x', platformAccountId: '2244994945', needsMedia: false, comments: true,
    valid: () => post('Hello from the sandbox'), tooLong: () => post(text(281)), url: /^https:\/\/x\.com\/brand\/status\/\d+$/,
    error: { fault: { type: 'error', status: 403, message: 'You are not allowed to create a Tweet with duplicate content.' }, code: 'duplicate_content', retryable: false },
  },
  {
    platform: 'facebook', platformAccountId: '1040001', kind: 'page', needsMedia: false, comments: true,
    valid: () => post('Hello page'), tooLong: () => post(text(63_207)), url: /^https:\/\/www\.facebook\.com\/1040001\/posts\/\d+$/,
    error: { fault: { type: 'error', status: 400, code: '506', message: 'Duplicate status message' }, code: 'duplicate_post', retryable: false },
  },
  {
    platform: 'instagram', platformAccountId: '17841400000001', kind: 'instagram', needsMedia: true, comments: true,
    valid: () => post('Caption', [`${sandbox.mediaUrl}/media/photo.jpg`]), tooLong: () => post(text(2_201), [`${sandbox.mediaUrl}/media/photo.jpg`]), url: /^https:\/\/www\.instagram\.com\/p\/\w+\/$/,
    error: { fault: { type: 'error', status: 400, code: '190/463', message: 'Error validating access token: Session has expired.' }, code: 'access_token_expired', retryable: false },
  },
  {
    platform: 'linkedin', platformAccountId: 'urn:li:organization:1001', kind: 'organization', needsMedia: false, comments: true,
    valid: () => post('Hello (network) #news'), tooLong: () => post(text(3_001)), url: /^https:\/\/www\.linkedin\.com\/feed\/update\/urn:li:share:\d+\/$/,
    error: { fault: { type: 'error', status: 403, code: 'ACCESS_DENIED', message: 'Not enough permissions to access: partnerApiPostsExternal.CREATE' }, code: 'access_denied', retryable: false },
  },
  {
    platform: 'threads', platformAccountId: '7001', needsMedia: false, comments: true, throttleNamesWait: false,
    valid: () => post('Hello threads'), tooLong: () => post(`${text(490)}😀😀😀`), url: /^https:\/\/www\.threads\.net\/@\w+\/post\/\w+$/,
    error: { fault: { type: 'error', status: 400, code: '100', message: 'Invalid parameter' }, code: 'invalid_parameter', retryable: false },
  },
  {
    platform: 'bluesky', platformAccountId: 'did:plc:brand', needsMedia: false, comments: true,
    valid: () => post('Hello sky'), tooLong: () => post(text(301)), url: /^https:\/\/bsky\.app\/profile\/brand\/post\/[2-7a-z]{13}$/,
    error: { fault: { type: 'error', status: 400, code: 'ExpiredToken', message: 'Token has expired' }, code: 'access_token_expired', retryable: false },
  },
  {
    platform: 'mastodon', needsMedia: false, comments: true,
    valid: () => post('Hello fediverse'), tooLong: () => post(text(501)), url: /^https:\/\/mastodon\.sandbox\/@[\w-]+\/\d+$/,
    error: { fault: { type: 'error', status: 422, message: 'Validation failed: Text character limit of 500 exceeded' }, code: 'validation_failed', retryable: false },
  },
  {
    platform: 'tiktok', needsMedia: true, comments: false,
    valid: () => post('Watch this', [`${sandbox.mediaUrl}/media/clip.mp4`]), tooLong: () => post(text(2_201), [`${sandbox.mediaUrl}/media/clip.mp4`]), url: /^https:\/\/www\.tiktok\.com\/@brand\/video\/\d+$/,
    error: { fault: { type: 'error', status: 403, code: 'spam_risk_too_many_posts', message: 'The user has reached the daily post cap' }, code: 'spam_risk_too_many_posts', retryable: false },
  },
  {
    platform: 'youtube', needsMedia: true, comments: true,
    valid: () => post('Launch video\nAll the details', [`${sandbox.mediaUrl}/media/clip.mp4`]), tooLong: () => post(text(5_001), [`${sandbox.mediaUrl}/media/clip.mp4`]), url: /^https:\/\/www\.youtube\.com\/watch\?v=[\w-]{11}$/,
    error: { fault: { type: 'error', status: 403, code: 'quotaExceeded', message: 'The request cannot be completed because you have exceeded your quota.' }, code: 'quota_exceeded', retryable: false },
  },
  {
    platform: 'pinterest', attributes: { boardId: 'board-42' }, needsMedia: true, comments: false,
    valid: () => post('Pin this', [`${sandbox.mediaUrl}/media/photo.jpg`]), tooLong: () => post(text(801), [`${sandbox.mediaUrl}/media/photo.jpg`]), url: /^https:\/\/www\.pinterest\.com\/pin\/\d+\/$/,
    error: { fault: { type: 'error', status: 401, code: '2', message: 'Authentication failed.' }, code: 'access_token_invalid', retryable: false },
  },
];

let sandbox: RunningPlatformSandbox;
let connectors: ConnectorRegistry;
const sleeps: number[] = [];
let tokenSequence = 0;

beforeAll(async () => {
  sandbox = await startPlatformSandbox({ port: 0 });
  connectors = new ConnectorRegistry({
    endpoints: sandboxEndpoints(sandbox.url),
    retry: { baseDelayMs: 1, maxDelayMs: 4, requestTimeoutMs: 2_000, sleep: async (ms) => void sleeps.push(ms) },
    media: { allowedHosts: [new URL(sandbox.mediaUrl).host] },
  });
});

afterAll(async () => {
  await sandbox.close();
});

beforeEach(() => {
  sleeps.length = 0;
});

/** A fresh account per test, signed in on the sandbox: its key isolates its requests and items there. */
function accountFor(testCase: PlatformCase): ConnectorAccount {
  const { accountId, platform, identity, credentials } = provisionConnectorAccount(sandbox, {
    platform: testCase.platform,
    handle: '@brand',
    key: `acc-${++tokenSequence}`,
    kind: testCase.kind,
    platformAccountId: testCase.platformAccountId,
    attributes: testCase.attributes,
  });
  return { accountId, platform, identity, credentials };
}

function fault(testCase: PlatformCase, account: ConnectorAccount, spec: FaultSpec, times = 1, operation = 'publish'): void {
  sandbox.control.addFault({ platform: testCase.platform, account: account.accountId, operation, times, fault: spec });
}

function publishCount(testCase: PlatformCase, account: ConnectorAccount): number {
  return sandbox.control.requestCount({ platform: testCase.platform, account: account.accountId, operation: 'publish' });
}

function postsOf(testCase: PlatformCase, account: ConnectorAccount) {
  return sandbox.control.published({ platform: testCase.platform, account: account.accountId, kind: 'post' });
}

describe.each(CASES)('$platform connector', (testCase) => {
  const connector = () => connectors.get(testCase.platform);

  it('publishes and answers the platform id and a public url', async () => {
    const account = accountFor(testCase);
    const outcome = await connector().publish(account, testCase.valid(sandbox.url));
    const stored = postsOf(testCase, account);
    expect(stored).toHaveLength(1);
    expect(outcome).toEqual({ status: 'published', platformPostId: stored[0].id, url: expect.stringMatching(testCase.url) });
    expect(publishCount(testCase, account)).toBe(1);
  });

  it('refuses text over the platform limit without any request', async () => {
    const account = accountFor(testCase);
    const outcome = await connector().publish(account, testCase.tooLong(sandbox.url));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'content_too_long', retryable: false } });
    expect(sandbox.control.requestCount({ account: account.accountId })).toBe(0);
  });

  if (testCase.needsMedia) {
    it('refuses a text-only post with media_required, without any request', async () => {
      const account = accountFor(testCase);
      const outcome = await connector().publish(account, post('just words'));
      expect(outcome).toMatchObject({ status: 'failed', error: { code: 'media_required', retryable: false } });
      expect(sandbox.control.requestCount({ account: account.accountId })).toBe(0);
    });
  }

  it("maps the platform's error body to {code, message, retryable} and does not retry a permanent error", async () => {
    const account = accountFor(testCase);
    fault(testCase, account, testCase.error.fault);
    const outcome = await connector().publish(account, testCase.valid(sandbox.url));
    expect(outcome).toEqual({
      status: 'failed',
      error: { code: testCase.error.code, message: testCase.error.fault.message, retryable: testCase.error.retryable },
    });
    expect(publishCount(testCase, account)).toBe(1);
    expect(postsOf(testCase, account)).toHaveLength(0);
  });

  if (testCase.throttleNamesWait !== false) {
    it('retries a 5xx and a rate limit, then publishes once', async () => {
      const account = accountFor(testCase);
      fault(testCase, account, { type: 'error', status: 503, message: 'over capacity' });
      fault(testCase, account, { type: 'rate_limit', resetAfterSeconds: 2 });
      const outcome = await connector().publish(account, testCase.valid(sandbox.url));
      expect(outcome.status).toBe('published');
      expect(publishCount(testCase, account)).toBe(3);
      expect(postsOf(testCase, account)).toHaveLength(1);
      expect(sleeps.length).toBeGreaterThanOrEqual(2);
    });
  } else {
    it('retries a 5xx but not a throttled answer that names no wait: a retryable rate_limited failure', async () => {
      const account = accountFor(testCase);
      fault(testCase, account, { type: 'error', status: 503, message: 'over capacity' });
      fault(testCase, account, { type: 'rate_limit', resetAfterSeconds: 2 });
      const outcome = await connector().publish(account, testCase.valid(sandbox.url));
      expect(outcome).toMatchObject({ status: 'failed', error: { code: 'rate_limited', retryable: true } });
      expect(publishCount(testCase, account)).toBe(2);
      expect(postsOf(testCase, account)).toHaveLength(0);
    });
  }

  it('gives up on a transient error after the bounded attempts, as a retryable failure', async () => {
    const account = accountFor(testCase);
    fault(testCase, account, { type: 'error', status: 500, message: 'still down' }, 10);
    const outcome = await connector().publish(account, testCase.valid(sandbox.url));
    expect(outcome).toMatchObject({ status: 'failed', error: { retryable: true } });
    expect(publishCount(testCase, account)).toBe(4);
  });

  if (testCase.platform === 'mastodon') {
    it('resends a publish whose answer was lost with the same Idempotency-Key: one status, its id recovered', async () => {
      const account = accountFor(testCase);
      fault(testCase, account, { type: 'drop' });
      const outcome = await connector().publish(account, testCase.valid(sandbox.url));
      const stored = postsOf(testCase, account);
      expect(stored).toHaveLength(1);
      expect(outcome).toMatchObject({ status: 'published', platformPostId: stored[0].id });
      expect(publishCount(testCase, account)).toBe(2);
    });
  } else {
    it('reports a dropped connection after the post was made as unknown, sent exactly once', async () => {
      const account = accountFor(testCase);
      fault(testCase, account, { type: 'drop' });
      const outcome = await connector().publish(account, testCase.valid(sandbox.url));
      expect(outcome).toMatchObject({ status: 'unknown', error: { code: 'outcome_unknown', retryable: false } });
      expect(publishCount(testCase, account)).toBe(1);
      expect(postsOf(testCase, account)).toHaveLength(1);
    });
  }

  if (testCase.comments) {
    it('comments under a published item and replies to a comment', async () => {
      const account = accountFor(testCase);
      const published = await connector().publish(account, testCase.valid(sandbox.url));
      if (published.status !== 'published') throw new Error(`publish failed: ${JSON.stringify(published)}`);
      const first = await connector().comment(account, { kind: 'post', platformPostId: published.platformPostId }, 'First comment', 'c-1');
      if (first.status !== 'published') throw new Error(`comment failed: ${JSON.stringify(first)}`);
      const reply = await connector().comment(
        account,
        { kind: 'comment', platformCommentId: first.platformPostId, platformPostId: published.platformPostId },
        'A reply',
        'c-2',
      );
      expect(reply.status).toBe('published');
      const comments = sandbox.control.published({ platform: testCase.platform, kind: 'comment', account: account.accountId });
      expect(comments.map((c) => [c.text, c.parentId])).toEqual([
        ['First comment', published.platformPostId],
        ['A reply', first.platformPostId],
      ]);
    });

    it('lists the comments others left, replies included', async () => {
      const account = accountFor(testCase);
      const published = await connector().publish(account, testCase.valid(sandbox.url));
      if (published.status !== 'published') throw new Error(`publish failed: ${JSON.stringify(published)}`);
      const top = sandbox.control.addComment({ platform: testCase.platform, parentId: published.platformPostId, text: 'Love it', author: 'fan_one' });
      sandbox.control.addComment({ platform: testCase.platform, parentId: top.id, text: 'Me too', author: 'fan_two' });
      const comments = await connector().listComments(account, published.platformPostId);
      expect(comments.map((c) => ({ text: c.text, author: c.author, parent: c.parentPlatformPostId, replyTo: c.inReplyToCommentId }))).toEqual([
        { text: 'Love it', author: 'fan_one', parent: published.platformPostId, replyTo: null },
        { text: 'Me too', author: 'fan_two', parent: published.platformPostId, replyTo: top.id },
      ]);
      expect(comments[0].platformCommentId).toBe(top.id);
      expect(comments.every((c) => !Number.isNaN(Date.parse(c.createdAt.replace('+0000', 'Z'))))).toBe(true);
    });
  } else {
    it('refuses comments (the public API has none) and lists none, without any request', async () => {
      const account = accountFor(testCase);
      const outcome = await connector().comment(account, { kind: 'post', platformPostId: '123' }, 'hi', 'c-1');
      expect(outcome).toMatchObject({ status: 'failed', error: { code: 'comments_not_supported', retryable: false } });
      expect(await connector().listComments(account, '123')).toEqual([]);
      expect(sandbox.control.requestCount({ account: account.accountId })).toBe(0);
    });
  }
});

describe('bluesky connector, 501 Not Implemented', () => {
  // RFC 9110 §15.6.2: the server does not support the method, so asking again gets the same answer.
  it('does not retry a getRecord answered 501 (not transient): one lookup, a non-retryable failure, no reply', async () => {
    const testCase = CASES.find((c) => c.platform === 'bluesky')!;
    const account = accountFor(testCase);
    const published = await connectors.get('bluesky').publish(account, post('parent'));
    if (published.status !== 'published') throw new Error(`publish failed: ${JSON.stringify(published)}`);
    fault(testCase, account, { type: 'error', status: 501, code: 'MethodNotImplemented', message: 'Method Not Implemented' }, 10, 'lookup');
    const outcome = await connectors.get('bluesky').comment(account, { kind: 'post', platformPostId: published.platformPostId }, 'a reply', 'c-1');
    expect(outcome).toEqual({ status: 'failed', error: { code: 'method_not_implemented', message: 'Method Not Implemented', retryable: false } });
    expect(sandbox.control.requestCount({ platform: 'bluesky', account: account.accountId, operation: 'lookup' })).toBe(1);
    expect(sandbox.control.published({ platform: 'bluesky', account: account.accountId, kind: 'comment' })).toHaveLength(0);
    sandbox.control.clearFaults();
  });
});

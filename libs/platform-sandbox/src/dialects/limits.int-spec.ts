import { mediaRefs } from '@app/media';
import type { Platform } from '@app/contracts';
import { ConnectorAccount, ConnectorRegistry, GRAPH_API_VERSION, LINKEDIN_API_VERSION, PublishRequest, sandboxEndpoints, THREADS_API_VERSION } from '@app/platforms';
import { escapeLittleText } from '@app/platforms/connectors/linkedin.connector';
import type { SandboxIdentity } from '../auth/authority';
import { provisionConnectorAccount } from '../sandbox-accounts';
import { RunningPlatformSandbox, startPlatformSandbox } from '../sandbox';

/**
 * Each platform's text rules at their boundaries, both sides: the sandbox's create endpoint
 * accepts exactly what the platform's documentation allows and refuses the rest in the
 * platform's error shape, and the connector publishes the first and refuses the second
 * before any request. Texts marked "(was ...)" are those the old counting got wrong.
 */

interface Answer {
  status: number;
  body: unknown;
}

interface LimitCase {
  platform: Platform;
  kind?: SandboxIdentity['kind'];
  /** The documentation page the rule comes from. */
  doc: string;
  /** The platform's create call with this text, made directly with the account's access token. */
  create: (account: ConnectorAccount, text: string) => Promise<Answer>;
  /** What the platform answers a created item. */
  created: number;
  /** The post the connector is asked to publish. */
  request?: (text: string) => PublishRequest;
  accepted: Array<[label: string, text: string]>;
  refused: Array<[label: string, text: string, body: object]>;
}

/** A photo on the sandbox's media host (Instagram fetches it; so does the connector, through the media pipeline). */
const photo = (): string => `${sandbox.mediaUrl}/media/photo.jpg`;
const family = '👨‍👩‍👧‍👦'; // 1 grapheme, 7 code points, 25 bytes of UTF-8; X weighs it 2
const post = (content: string, mediaUrls: string[] = []): PublishRequest => ({ content, media: mediaRefs(mediaUrls), idempotencyKey: `limits-${Math.random()}` });
const a = (length: number): string => 'a'.repeat(length);
const tags = (sign: '#' | '@', count: number): string => Array.from({ length: count }, (_, i) => `${sign}tag${i}`).join(' ');

let sandbox: RunningPlatformSandbox;
let connectors: ConnectorRegistry;
let accounts = 0;

async function call(url: string, token: string, body: { json: unknown } | { form: Record<string, string> }, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${sandbox.url}${url}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'json' in body ? 'application/json' : 'application/x-www-form-urlencoded', ...headers },
    body: 'json' in body ? JSON.stringify(body.json) : new URLSearchParams(body.form).toString(),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const X_TOO_LONG = {
  title: 'Invalid Request',
  type: 'https://api.twitter.com/2/problems/invalid-request',
  detail: expect.stringContaining('Your Tweet text is too long'),
};
const THREADS_TOO_LONG = { error: { code: 100, message: expect.stringContaining('longer than 500 characters') } };
const bluesky = (limit: string) => ({ error: 'InvalidRequest', message: `Invalid app.bsky.feed.post record: Record/text must not be longer than ${limit}` });
const LINKEDIN_TOO_LONG = { status: 400, message: expect.stringMatching(/ShareCommentary text length \(\d+ characters\) exceeded the maximum allowed \(3000 characters\)/) };

const CASES: LimitCase[] = [
  {
    platform: 'x',
    doc: 'https://docs.x.com/fundamentals/counting-characters',
    create: (account, text) => call('/x/2/tweets', account.credentials.accessToken, { json: { text } }),
    created: 201,
    accepted: [
      ['280 Latin characters', a(280)],
      ['a bare domain counted as a 23-character link', `${a(256)} example.com`],
      ['140 family emoji, 2 each (was 11 each)', family.repeat(140)],
    ],
    refused: [
      ['281 Latin characters', a(281), X_TOO_LONG],
      ['a bare domain pushing it to 281 (was 269)', `${a(257)} example.com`, X_TOO_LONG],
      ['140 family emoji and a letter', `${family.repeat(140)}a`, X_TOO_LONG],
    ],
  },
  {
    platform: 'threads',
    doc: 'https://developers.facebook.com/documentation/threads/posts (Limitations)',
    create: (account, text) =>
      call(`/threads/${THREADS_API_VERSION}/${account.identity.platformAccountId}/threads`, account.credentials.accessToken, { form: { media_type: 'TEXT', text } }),
    created: 200,
    accepted: [
      ['500 characters', a(500)],
      ['20 family emoji of 25 bytes each', family.repeat(20)],
    ],
    refused: [
      ['501 characters', a(501), THREADS_TOO_LONG],
      ['20 family emoji and a letter, 501 (was 381)', `${family.repeat(20)}a`, THREADS_TOO_LONG],
    ],
  },
  {
    platform: 'bluesky',
    doc: 'app.bsky.feed.post lexicon (maxGraphemes 300, maxLength 3000), https://atproto.com/specs/lexicon#string',
    create: (account, text) =>
      call('/bluesky/xrpc/com.atproto.repo.createRecord', account.credentials.accessToken, {
        json: { repo: account.identity.platformAccountId, collection: 'app.bsky.feed.post', record: { $type: 'app.bsky.feed.post', text, createdAt: new Date().toISOString() } },
      }),
    created: 200,
    accepted: [
      ['300 graphemes', a(300)],
      ['120 family emoji: 120 graphemes, 3,000 bytes', family.repeat(120)],
    ],
    refused: [
      ['301 graphemes', a(301), bluesky('300 graphemes')],
      ['121 family emoji: 121 graphemes but 3,025 bytes (was let through)', family.repeat(121), bluesky('3000 characters')],
    ],
  },
  {
    platform: 'instagram',
    kind: 'instagram',
    doc: 'https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media (caption) and .../reference/error-codes',
    create: (account, text) =>
      call(`/instagram/${GRAPH_API_VERSION}/${account.identity.platformAccountId}/media`, account.credentials.accessToken, { form: { image_url: photo(), caption: text } }),
    created: 200,
    request: (text) => post(text, [photo()]),
    accepted: [
      ['2,200 characters', a(2_200)],
      ['30 hashtags', tags('#', 30)],
      ['20 @ tags', tags('@', 20)],
    ],
    refused: [
      ['2,201 characters', a(2_201), { error: { code: 36004, message: expect.stringContaining('caption was 2201 characters long') } }],
      ['31 hashtags (was let through)', tags('#', 31), { error: { code: 36004, message: expect.stringContaining('more than 30 hashtags') } }],
      ['21 @ tags (was let through)', tags('@', 21), { error: { code: 100, message: 'Cannot use more than 20 tags per created media.' } }],
    ],
  },
  {
    platform: 'linkedin',
    kind: 'user',
    doc: 'https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/little-text-format (Posts API commentary)',
    create: (account, text) =>
      call(
        '/linkedin/rest/posts',
        account.credentials.accessToken,
        {
          json: {
            author: account.identity.platformAccountId,
            commentary: escapeLittleText(text),
            visibility: 'PUBLIC',
            distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
            lifecycleState: 'PUBLISHED',
            isReshareDisabledByAuthor: false,
          },
        },
        { 'LinkedIn-Version': LINKEDIN_API_VERSION, 'X-Restli-Protocol-Version': '2.0.0' },
      ),
    created: 201,
    accepted: [
      ['3,000 characters', a(3_000)],
      ['1,500 reserved characters, 3,000 once escaped', '('.repeat(1_500)],
    ],
    refused: [
      ['3,001 characters', a(3_001), LINKEDIN_TOO_LONG],
      ['1,501 reserved characters, 3,002 once escaped (was let through)', '('.repeat(1_501), LINKEDIN_TOO_LONG],
    ],
  },
];

beforeAll(async () => {
  sandbox = await startPlatformSandbox({ port: 0 });
  connectors = new ConnectorRegistry({
    endpoints: sandboxEndpoints(sandbox.url),
    retry: { baseDelayMs: 1, maxDelayMs: 4, sleep: async () => undefined },
    media: { allowedHosts: [new URL(sandbox.mediaUrl).host] },
  });
});

afterAll(async () => {
  await sandbox.close();
});

/** A fresh account per test, so its requests are counted apart (LinkedIn's as a member URN, its posts' author). */
function accountFor(testCase: LimitCase): ConnectorAccount {
  const key = `limits-${++accounts}`;
  const platformAccountId = testCase.platform === 'linkedin' ? `urn:li:person:${key}` : undefined;
  const { accountId, platform, identity, credentials } = provisionConnectorAccount(sandbox, { platform: testCase.platform, handle: '@brand', key, kind: testCase.kind, platformAccountId });
  return { accountId, platform, identity, credentials };
}

describe.each(CASES)('$platform text rules ($doc)', (testCase) => {
  const request = (text: string) => (testCase.request ?? post)(text);

  it.each(testCase.accepted)('the platform takes %s, and the connector publishes it', async (_label, text) => {
    const account = accountFor(testCase);
    expect((await testCase.create(account, text)).status).toBe(testCase.created);
    expect(await connectors.get(testCase.platform).publish(account, request(text))).toMatchObject({ status: 'published' });
  });

  it.each(testCase.refused)('the platform refuses %s, and the connector refuses it without a request', async (_label, text, body) => {
    const account = accountFor(testCase);
    const outcome = await connectors.get(testCase.platform).publish(account, request(text));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'content_too_long', retryable: false } });
    expect(sandbox.control.requestCount({ account: account.accountId })).toBe(0);
    expect(await testCase.create(account, text)).toMatchObject({ status: 400, body });
  });
});

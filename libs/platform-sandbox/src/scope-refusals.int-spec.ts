import type { Platform } from '@app/contracts';
import { DOCUMENTED_SCOPES, documentedEndpoint } from '@app/platforms/scopes';
import type { SandboxIdentity } from './auth/authority';
import { documentedConsent } from './auth/documented-consent';
import { RunningPlatformSandbox, startPlatformSandbox } from './sandbox';

/**
 * The sandbox refuses a call whose token lacks what the endpoint's documentation requires
 * (libs/platforms/src/scopes), with the platform's own status and body, before anything is
 * made; the same call with the documented scopes goes through to the endpoint. Refusals as
 * documented:
 * - X: 403 problem "Forbidden" (https://docs.x.com/x-api/fundamentals/response-codes-and-errors)
 * - Mastodon: 403 {"error": "This action is outside the authorized scopes"} (https://docs.joinmastodon.org/api/oauth-scopes/)
 * - Facebook: OAuthException #200, Instagram and Threads #10 (https://developers.facebook.com/docs/graph-api/guides/error-handling)
 * - LinkedIn: 403 ACCESS_DENIED "Not enough permissions to access" (https://learn.microsoft.com/en-us/linkedin/shared/api-guide/concepts/error-handling)
 * - TikTok: 401 scope_not_authorized (https://developers.tiktok.com/doc/tiktok-api-v2-error-handling)
 * - YouTube: 403 insufficientPermissions, PERMISSION_DENIED (https://developers.google.com/youtube/v3/docs/errors)
 * - Pinterest: 401 code 3 "Authorization failed."
 */
let sandbox: RunningPlatformSandbox;
beforeAll(async () => {
  sandbox = await startPlatformSandbox();
});
afterAll(() => sandbox.close());

interface RefusalCase {
  platform: Platform;
  kind?: SandboxIdentity['kind'];
  /** The call, as the platform's reference shows it; `{id}` is the account's platform id, `{version}` the Graph API version. */
  method: 'POST' | 'GET';
  path: string;
  body?: Record<string, unknown>;
  /** What the user granted: everything the call needs but one scope. */
  granted: string[];
  status: number;
  answer: unknown;
}

const graphPermission = (code: number, permission: string) => ({ error: expect.objectContaining({ type: 'OAuthException', code, message: expect.stringContaining(permission) }) });

const CASES: RefusalCase[] = [
  {
    platform: 'x', method: 'POST', path: '/2/media/upload', body: { media_category: 'tweet_image' }, granted: ['tweet.read', 'tweet.write', 'users.read', 'offline.access'],
    status: 403, answer: { title: 'Forbidden', type: 'about:blank', status: 403, detail: 'Forbidden' },
  },
  {
    platform: 'mastodon', method: 'POST', path: '/api/v2/media', body: {}, granted: ['read:accounts', 'read:statuses', 'write:statuses'],
    status: 403, answer: { error: 'This action is outside the authorized scopes' },
  },
  {
    platform: 'facebook', kind: 'page', method: 'POST', path: '/{version}/{id}/feed', body: { message: 'hello' }, granted: ['pages_show_list', 'pages_read_engagement'],
    status: 403, answer: graphPermission(200, 'pages_manage_posts'),
  },
  {
    platform: 'instagram', kind: 'instagram', method: 'POST', path: '/{version}/{id}/media', body: { image_url: 'https://cdn.example.com/a.jpg' }, granted: ['instagram_basic', 'pages_read_engagement'],
    status: 403, answer: graphPermission(10, 'instagram_content_publish'),
  },
  {
    platform: 'threads', method: 'POST', path: '/{version}/{id}/threads', body: { media_type: 'TEXT', text: 'hello' }, granted: ['threads_basic'],
    status: 403, answer: graphPermission(10, 'threads_content_publish'),
  },
  {
    platform: 'linkedin', method: 'POST', path: '/rest/posts', body: { commentary: 'hello' }, granted: ['openid', 'profile'],
    status: 403, answer: { status: 403, serviceErrorCode: 100, code: 'ACCESS_DENIED', message: expect.stringContaining('Not enough permissions to access') },
  },
  {
    platform: 'tiktok', method: 'POST', path: '/v2/post/publish/video/init/', body: {}, granted: ['user.info.basic', 'video.list'],
    status: 401, answer: { data: {}, error: expect.objectContaining({ code: 'scope_not_authorized' }) },
  },
  {
    platform: 'youtube', method: 'POST', path: '/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status', body: {}, granted: ['https://www.googleapis.com/auth/youtube.readonly'],
    status: 403, answer: { error: expect.objectContaining({ code: 403, status: 'PERMISSION_DENIED', errors: [expect.objectContaining({ reason: 'insufficientPermissions' })] }) },
  },
  {
    platform: 'pinterest', method: 'POST', path: '/v5/pins', body: { board_id: '1' }, granted: ['boards:read', 'pins:read', 'user_accounts:read'],
    status: 401, answer: { code: 3, message: 'Authorization failed.' },
  },
];

let sequence = 0;

async function call(testCase: RefusalCase, scopes: string[]) {
  const account = sandbox.control.provisionAccount({ platform: testCase.platform, handle: `scoped${++sequence}`, kind: testCase.kind, scopes });
  const answer = await fetch(`${sandbox.url}/${testCase.platform}${testCase.path.replace('{version}', 'v23.0').replace('{id}', account.identity.platformAccountId)}`, {
    method: testCase.method,
    headers: { authorization: `Bearer ${account.accessToken}`, 'content-type': 'application/json' },
    body: testCase.body ? JSON.stringify(testCase.body) : undefined,
  });
  return { key: account.identity.key, status: answer.status, body: await answer.json().catch(() => null) };
}

describe.each(CASES)('$platform $method $path', (testCase) => {
  it('is refused in the platform\'s words when the token lacks a documented scope, and nothing is made', async () => {
    const row = documentedEndpoint(DOCUMENTED_SCOPES[testCase.platform], testCase.method, testCase.path.split('?')[0]);
    expect(row).toBeDefined();
    const refused = await call(testCase, testCase.granted);
    expect({ status: refused.status, body: refused.body }).toEqual({ status: testCase.status, body: testCase.answer });
    expect(sandbox.control.published({ platform: testCase.platform, account: refused.key })).toEqual([]);
    // The refusal is recorded as that documented endpoint (what connector-scopes.int-spec.ts reads).
    expect(sandbox.control.requests({ platform: testCase.platform, account: refused.key }).map((request) => request.documented)).toEqual([row!.path]);
  });

  it('lets the same call through to the endpoint with the documented scopes', async () => {
    const allowed = await call(testCase, documentedConsent(testCase.platform));
    expect({ status: allowed.status, body: allowed.body }).not.toEqual({ status: testCase.status, body: testCase.answer });
  });
});

it("takes Mastodon's parent scope for its granular ones (write covers write:media)", async () => {
  const parent = await call(CASES[1], ['read', 'write']);
  expect(parent.status).not.toBe(403);
});

it('holds nothing for a token whose sign-in named no scope (none is implied)', async () => {
  const none = await call(CASES[0], []);
  expect(none.status).toBe(403);
});

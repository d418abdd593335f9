import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { FastifyInstance } from 'fastify';
import { ERROR_CODES, PLATFORMS, POST_STATUSES } from '@app/contracts';
import { TestStack } from '../support/test-stack';
import { metaSignature } from '../../apps/gateway/src/comments/meta-webhook';

/**
 * Property-based fuzzing of every gateway endpoint (the controllers and the
 * OpenAPI document: posts, comments, accounts, the Meta webhook, health,
 * metrics, the documents themselves, and paths and methods that are none of
 * them). Each generated request, valid-ish or malformed in its method, path,
 * query string, headers and body (unicode edge cases, NUL and lone surrogates,
 * huge and deep values), must be answered:
 * - below 500;
 * - for every 4xx, in the one documented error shape, {"error": {"code", "message", "candidates"?, "details"?}},
 *   with a code of the catalogue answered at that code's own status;
 * - for every refusal, with no event appended on its behalf.
 *
 * Seeded: FUZZ_SEED=<n> replays a run; a failure names its seed (and fast-check's
 * counterexample path). Requests are injected in-process (no sockets), one at a
 * time, so a refusal's event check sees only what could be its own.
 */
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const META_SECRET = 'fuzz-meta-secret';
const META_VERIFY_TOKEN = 'fuzz-verify-token';

interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

describe('fuzz: no input yields a 5xx, every refusal in the documented shape and stores nothing', () => {
  let stack: TestStack;
  let gateway: FastifyInstance;
  const keys: string[] = [];
  const accountIds: string[] = [];
  const postIds: string[] = [];
  /** How the requests were answered ("201", "400 invalid_body", ...): printed, to see what the run reached. */
  const answers = new Map<string, number>();

  beforeAll(async () => {
    stack = await TestStack.start({
      sandbox: process.env.FUZZ_NO_SANDBOX !== '1',
      overrides: {
        // Rate limits off: every request must reach its route, not be counted out with 429.
        rateLimitGeneralPerMinute: 0,
        rateLimitRepliesPerMinute: 0,
        metaAppSecret: META_SECRET,
        metaWebhookVerifyToken: META_VERIFY_TOKEN,
      },
    });
    gateway = stack.app('gateway').getHttpAdapter().getInstance() as unknown as FastifyInstance;
    const { key, workspaceId } = await stack.workspace(['read', 'write', 'publish', 'engage', 'accounts', 'webhooks']);
    keys.push(key, (await stack.workspace(['read'])).key, (await stack.workspace(['read', 'write'])).key, (await stack.workspace(['engage', 'accounts'])).key);
    for (const platform of ['x', 'mastodon', 'facebook'] as const) accountIds.push((await stack.connect(workspaceId, platform, `@fuzz-${platform}`)).id);
    for (const content of ['first draft', 'second draft', 'third draft']) {
      const created = await stack.request('POST', '/api/v1/posts', { key, body: { content, accounts: [accountIds[0]] } });
      postIds.push(created.body.post.id);
    }
  }, 60_000);
  afterAll(async () => {
    const total = [...answers.values()].reduce((sum, count) => sum + count, 0);
    const byCount = [...answers].sort((a, b) => b[1] - a[1]).map(([answer, count]) => `${answer}: ${count}`);
    // eslint-disable-next-line no-console
    console.log(`fuzz: ${total} requests, FUZZ_SEED=${SEED}\n${byCount.join('\n')}`);
    await stack.stop();
  });

  // ---- values -------------------------------------------------------------

  const EDGE_STRINGS = [
    '', ' ', '\u0000', 'a\u0000b', '\uD800', '\uDFFF', 'x\uD83D', '\uDC00y', '😀', '👩‍👩‍👧', '\u202Etxet', 'é', 'e\u0301', '中文', '\uFEFF', '%00', '%', '../..',
    '<script>', "'; DROP TABLE events; --", 'null', 'true', '-1', '1e309', 'x'.repeat(2_201), 'x'.repeat(10_001), '@fuzz-x', 'x', 'twitter', '2030-01-01T00:00:00Z',
  ];
  const edgeString = fc.oneof(
    { weight: 3, arbitrary: fc.string({ maxLength: 30 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
    { weight: 3, arbitrary: fc.constantFrom(...EDGE_STRINGS) },
    { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom('\u0000', '\uD800', '\uDC00', 'a', '😀', '\u200D', '"', '\\', '{', '['), maxLength: 20 }) },
  );
  const number = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -1, 1e20, -1e20, 2 ** 53, 1e308, -0));
  const { json } = fc.letrec<{ json: unknown }>((tie) => ({
    json: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      edgeString,
      number,
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('json'), { maxLength: 4 }),
      fc.dictionary(edgeString, tie('json'), { maxKeys: 4 }),
    ),
  }));
  /** Sometimes the expected type, sometimes anything. */
  const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary }, { weight: 1, arbitrary: json });
  const uuid = fc.uuid();
  const accountRef = fc.oneof(fc.constantFrom(...['@fuzz-x', '@fuzz-mastodon', 'fuzz-x', '@nobody']), fc.constant(null).map(() => accountIds[0]), uuid, edgeString);
  const futureDate = fc.integer({ min: 2, max: 3_000 }).map((days) => new Date(Date.now() + days * 86_400_000).toISOString());
  const dateish = fc.oneof(futureDate, fc.constantFrom('2020-01-01T00:00:00Z', '2030-02-30T10:00:00Z', '2030-01-01T10:00:00', 'tomorrow', ''), edgeString);
  const mediaUrl = fc.oneof(fc.constantFrom('https://example.invalid/a.png', 'http://insecure/a.png', 'ftp://x', 'https://'), edgeString);

  const postFields = {
    content: maybe(fc.oneof(fc.string({ minLength: 1, maxLength: 50 }), edgeString)),
    accounts: maybe(fc.array(accountRef, { maxLength: 12 })),
    accountIds: maybe(fc.array(accountRef, { maxLength: 3 })),
    platforms: maybe(fc.array(fc.oneof(fc.constantFrom(...PLATFORMS), edgeString), { maxLength: 3 })),
    mediaUrls: maybe(fc.array(mediaUrl, { maxLength: 12 })),
    altText: maybe(fc.array(fc.oneof(edgeString, fc.constant(null)), { maxLength: 3 })),
    firstComments: maybe(fc.array(edgeString, { maxLength: 6 })),
    scheduledAt: maybe(fc.oneof(dateish, fc.constant(null))),
    publishNow: maybe(fc.boolean()),
  };
  /** Text a client sends: mostly storable and beyond ASCII, sometimes an edge case inside an otherwise valid body. */
  const text = fc.oneof({ weight: 4, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }) }, { weight: 1, arbitrary: edgeString });
  const knownAccounts = fc.constant(null).chain(() => fc.subarray(accountIds, { minLength: 1 }));
  /** A body every rule accepts (a draft, a scheduled post or one published now), but for the odd edge-case string. */
  const validCreateBody = fc.record(
    {
      content: text,
      accounts: knownAccounts,
      firstComments: fc.array(text, { maxLength: 2 }),
      scheduledAt: futureDate,
      publishNow: fc.constant(true),
    },
    { requiredKeys: ['content', 'accounts'] },
  ).filter((body) => !(body.scheduledAt && body.publishNow));
  const createBody = fc.oneof({ weight: 1, arbitrary: validCreateBody }, { weight: 2, arbitrary: fc.record(postFields, { requiredKeys: [] }) });
  const validEditBody = fc.record({ content: text, scheduledAt: fc.oneof(futureDate, fc.constant(null)), firstComments: fc.array(text, { maxLength: 2 }) }, { requiredKeys: [] });
  const editBody = fc.oneof({ weight: 1, arbitrary: validEditBody }, { weight: 2, arbitrary: fc.record({ ...postFields, publishNow: maybe(fc.constant(undefined)) }, { requiredKeys: [] }) });

  const MALFORMED_BODIES = ['{', '{"content":', 'nul', '\u0000', '[1,]', '{"a":1}}', '"text"', '12', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"x":1}}}', '\uFEFF{}', ''];
  const deepBody = fc.tuple(fc.integer({ min: 50, max: 20_000 }), fc.constantFrom('[', '{"a":'), fc.constantFrom('', '{"content":')).map(
    ([depth, open, prefix]) => `${prefix}${open.repeat(depth)}1${(open === '[' ? ']' : '}').repeat(depth)}${prefix ? '}' : ''}`,
  );
  /** A body as sent: mostly JSON of the expected shape, or anything, or not JSON, too deep or too large. */
  const rawBody = (shaped: fc.Arbitrary<unknown>) =>
    fc.oneof(
      { weight: 12, arbitrary: shaped.map((value) => JSON.stringify(value)) },
      { weight: 3, arbitrary: json.map((value) => JSON.stringify(value)) },
      { weight: 2, arbitrary: fc.constantFrom(...MALFORMED_BODIES) },
      { weight: 2, arbitrary: deepBody },
      { weight: 1, arbitrary: fc.integer({ min: 500_000, max: 1_200_000 }).map((size) => `{"content":"${'x'.repeat(size)}","accounts":["@fuzz-x"]}`) },
    );

  // ---- headers, paths, query strings -----------------------------------------

  /** Header values as they can arrive over HTTP: visible ASCII and Latin-1 (no CR, LF or NUL). */
  const headerValue = fc.oneof(fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f).map((c) => String.fromCharCode(c)), maxLength: 300 }), fc.constantFrom('', ' ', '*', '"3"', 'W/"1"'));
  const authorization = fc.oneof(
    { weight: 8, arbitrary: fc.constant(null).map(() => `Bearer ${keys[0]}`) },
    { weight: 2, arbitrary: fc.integer({ min: 1, max: 3 }).map((i) => `Bearer ${keys[i]}`) },
    { weight: 1, arbitrary: fc.constantFrom('', 'Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'Bearer sp_unknown', `bearer  ${'k'.repeat(300)}`) },
    { weight: 1, arbitrary: headerValue },
  );
  const contentType = fc.oneof(
    { weight: 10, arbitrary: fc.constant('application/json') },
    { weight: 2, arbitrary: fc.constantFrom('text/plain', 'application/json; charset=latin1', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx', '') },
    { weight: 1, arbitrary: headerValue },
  );
  const extraHeaders = fc.record(
    {
      'idempotency-key': headerValue,
      'if-match': fc.oneof(fc.constantFrom('"1"', '"2"', '"999"', '*', 'W/"1"', '1', '"-1"', `"${'9'.repeat(400)}"`), headerValue),
      'accept-encoding': fc.constantFrom('gzip', 'identity', '*'),
      'x-hub-signature-256': fc.oneof(fc.constantFrom('sha256=00', `sha256=${'a'.repeat(64)}`), headerValue),
      accept: fc.constantFrom('application/json', '*/*', 'text/html'),
    },
    { requiredKeys: [] },
  );
  /** A path segment: an id that exists, a fresh uuid, or something else, percent-encoded as a client would (raw when it cannot be). */
  const segment = fc.oneof(
    { weight: 4, arbitrary: fc.constant(null).map(() => postIds[0]) },
    { weight: 1, arbitrary: fc.constant(null).map(() => accountIds[1]) },
    { weight: 2, arbitrary: uuid },
    { weight: 2, arbitrary: edgeString.map(encodeSegment) },
    { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%E0%A4%A', '%C0%80', '%00', '..', '.', 'a'.repeat(101), 'a'.repeat(5_000), '%F0%9F%98%80', '%ED%A0%80') },
  );
  const queryString = fc.oneof(
    { weight: 3, arbitrary: fc.constant('') },
    {
      weight: 4,
      arbitrary: fc
        .array(fc.tuple(fc.oneof(fc.constantFrom('status', 'limit', 'platform', 'sentiment', 'unreplied', 'cursor', 'state', 'code', 'error', 'hub.mode', 'hub.challenge'), edgeString), fc.oneof(fc.constantFrom(...POST_STATUSES, ...PLATFORMS, '1', '0', '-1', '50', '51', '1.5', '1e3', 'positive', 'subscribe'), edgeString)), { maxLength: 4 })
        .map((pairs) => `?${pairs.map(([name, value]) => `${encodeSegment(name)}=${encodeSegment(value)}`).join('&')}`),
    },
    { weight: 1, arbitrary: fc.constantFrom('?', '?&&', '?a', '?status=%00', '?limit=%E0%A4%A', '?status=draft&status=failed', `?limit=${'9'.repeat(400)}`, `?x=${'y'.repeat(13_000)}`, '?__proto__[x]=1', '?a[b][c]=1') },
  );
  const otherMethod = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS');

  /** One request to an endpoint: usually its own method, sometimes another. */
  function request(method: string, path: fc.Arbitrary<string>, body?: fc.Arbitrary<string>): fc.Arbitrary<FuzzRequest> {
    return fc
      .record({
        method: fc.oneof({ weight: 9, arbitrary: fc.constant(method) }, { weight: 1, arbitrary: otherMethod }),
        path,
        query: queryString,
        authorization: fc.option(authorization, { freq: 10 }),
        contentType,
        extra: extraHeaders,
        payload: body ? fc.option(body, { freq: 12 }) : fc.option(rawBody(json), { freq: 1 }),
      })
      .map(({ method: chosen, path: at, query, authorization: auth, contentType: type, extra, payload }) => ({
        method: chosen,
        url: `${at}${query}`,
        headers: { ...extra, ...(auth !== null ? { authorization: auth } : {}), ...(payload !== null ? { 'content-type': type } : {}) },
        ...(payload !== null ? { payload } : {}),
      }));
  }

  const postPath = (suffix = '') => segment.map((id) => `/api/v1/posts/${id}${suffix}`);
  const replyBody = fc.record(
    { platform: maybe(fc.oneof(fc.constantFrom(...PLATFORMS), edgeString)), commentId: maybe(fc.oneof(edgeString, uuid)), message: maybe(edgeString), accountId: maybe(fc.oneof(accountRef, fc.constant(null))) },
    { requiredKeys: [] },
  );
  // No https instance or PDS urls: those would be fetched, and tests never leave the machine.
  const serverUrl = fc.oneof(fc.constantFrom('http://mastodon.local', 'not a url', 'ftp://x', 'https://', ''), edgeString);
  const startConnectBody = fc.record({ platform: maybe(fc.oneof(fc.constantFrom(...PLATFORMS), edgeString)), redirectUri: maybe(fc.oneof(fc.constantFrom('https://app.example/back', 'http://localhost/cb', 'javascript:alert(1)'), edgeString)), instanceUrl: maybe(serverUrl) }, { requiredKeys: [] });
  const completeConnectBody = fc.record({ connectionId: maybe(fc.oneof(fc.uuid(), edgeString)), verifier: maybe(edgeString) }, { requiredKeys: [] });
  const credentialsBody = fc.record(
    {
      platform: maybe(fc.oneof(fc.constantFrom(...PLATFORMS), edgeString)),
      accessToken: maybe(edgeString),
      refreshToken: maybe(edgeString),
      expiresAt: maybe(dateish),
      instanceUrl: maybe(serverUrl),
      handle: maybe(edgeString),
      appPassword: maybe(edgeString),
      pds: maybe(serverUrl),
    },
    { requiredKeys: [] },
  );
  const metaPayload = fc.record({
    object: fc.oneof(fc.constantFrom('page', 'instagram', 'user'), edgeString),
    entry: maybe(
      fc.array(
        fc.record({
          id: maybe(edgeString),
          time: maybe(number),
          changes: maybe(
            fc.array(
              fc.record(
                {
                  field: fc.oneof(fc.constantFrom('feed', 'comments', 'mentions'), edgeString),
                  value: fc.record(
                    { item: fc.constantFrom('comment', 'reaction'), verb: fc.constantFrom('add', 'edited'), comment_id: maybe(edgeString), post_id: maybe(fc.oneof(fc.constant('111_222'), edgeString)), id: maybe(edgeString), message: maybe(edgeString), text: maybe(edgeString), created_time: maybe(number), from: maybe(fc.record({ name: maybe(edgeString), username: maybe(edgeString) })), media: maybe(fc.record({ id: maybe(edgeString) })) },
                    { requiredKeys: [] },
                  ),
                },
                { requiredKeys: [] },
              ),
              { maxLength: 4 },
            ),
          ),
        }),
        { maxLength: 3 },
      ),
    ),
  });
  /** A Meta delivery, signed with the app secret most of the time (so it reaches the parser). */
  const signedWebhook = fc.tuple(rawBody(metaPayload), fc.boolean(), extraHeaders).map(([payload, signed, extra]) => ({
    method: 'POST',
    url: '/webhooks/meta',
    headers: { ...extra, 'content-type': 'application/json', ...(signed ? { 'x-hub-signature-256': metaSignature(payload, META_SECRET) } : {}) },
    payload,
  }));

  // ---- the check ---------------------------------------------------------------

  async function latestPosition(): Promise<string> {
    const { rows } = await stack.db.pool.query<{ position: string }>('SELECT coalesce(max(global_position), 0)::text AS position FROM events');
    return rows[0].position;
  }

  /** Sends one request and checks the three properties; throws (failing the property) on any breach. */
  async function check(input: FuzzRequest): Promise<void> {
    const requestId = randomUUID();
    const before = await latestPosition();
    const response = await gateway.inject({ method: input.method as 'GET', url: input.url, headers: { ...input.headers, 'x-request-id': requestId }, payload: input.payload });
    const shown = `${input.method} ${input.url.slice(0, 200)} → ${response.statusCode} ${response.body.slice(0, 300)}`;
    const answer = response.statusCode < 400 ? String(response.statusCode) : `${response.statusCode} ${/"code":"([a-z_]+)"/.exec(response.body)?.[1] ?? `(${input.method}, no body)`}`;
    answers.set(answer, (answers.get(answer) ?? 0) + 1);
    if (response.statusCode >= 500) throw new Error(`5xx: ${shown}`);
    if (response.statusCode < 400) return;
    if (input.method !== 'HEAD') {
      let body: unknown;
      try {
        body = JSON.parse(response.body);
      } catch {
        throw new Error(`error answer is not JSON: ${shown}`);
      }
      const error = (body as { error?: Record<string, unknown> }).error;
      const errorCode = error?.code as keyof typeof ERROR_CODES;
      const documented =
        Object.keys(body as object).length === 1 &&
        typeof error === 'object' &&
        typeof error.message === 'string' &&
        errorCode in ERROR_CODES &&
        ERROR_CODES[errorCode].status === response.statusCode &&
        Object.keys(error).every((field) => ['code', 'message', 'candidates', 'details'].includes(field));
      if (!documented) throw new Error(`not the documented error shape: ${shown}`);
    }
    // Events appended meanwhile may only be earlier requests' background work (publication results), never this refusal's.
    const { rows } = await stack.db.pool.query<{ requestId: string | null }>(`SELECT metadata->>'requestId' AS "requestId" FROM events WHERE global_position > $1`, [before]);
    if (rows.some((row) => row.requestId === requestId)) throw new Error(`a refusal appended events: ${shown}`);
  }

  async function fuzz(name: string, arbitrary: fc.Arbitrary<FuzzRequest>, numRuns: number): Promise<void> {
    try {
      await fc.assert(fc.asyncProperty(arbitrary, check), { seed: SEED, numRuns, endOnFailure: true, includeErrorInReport: true });
    } catch (error) {
      throw new Error(`fuzz ${name} failed with FUZZ_SEED=${SEED} (rerun with it to reproduce)\n${error instanceof Error ? error.message : String(error)}`);
    }
  }

  // ---- every endpoint --------------------------------------------------------------
  // Runs add up to 12,000 requests.

  it('POST /api/v1/posts', () => fuzz('create post', request('POST', fc.constant('/api/v1/posts'), rawBody(createBody)), 2_500), 120_000);
  it('GET /api/v1/posts', () => fuzz('list posts', request('GET', fc.constant('/api/v1/posts')), 700), 60_000);
  it('GET /api/v1/posts/:id', () => fuzz('get post', request('GET', postPath()), 600), 60_000);
  it('PATCH /api/v1/posts/:id', () => fuzz('edit post', request('PATCH', postPath(), rawBody(editBody)), 1_300), 120_000);
  it('DELETE /api/v1/posts/:id', () => fuzz('delete post', request('DELETE', postPath()), 400), 60_000);
  it('POST /api/v1/posts/:id/publish and /retry', () => fuzz('publish and retry', fc.oneof(request('POST', postPath('/publish')), request('POST', postPath('/retry'))), 600), 60_000);
  it('GET /api/v1/comments', () => fuzz('list comments', request('GET', fc.constant('/api/v1/comments')), 600), 60_000);
  it('POST /api/v1/comments/reply', () => fuzz('reply', request('POST', fc.constant('/api/v1/comments/reply'), rawBody(replyBody)), 1_000), 60_000);
  it('the accounts endpoints', () =>
    fuzz(
      'accounts',
      fc.oneof(
        request('GET', fc.constant('/api/v1/accounts')),
        request('POST', fc.constant('/api/v1/accounts/connect'), rawBody(startConnectBody)),
        request('GET', fc.constant('/api/v1/accounts/connect/callback')),
        request('POST', fc.constant('/api/v1/accounts/connect/complete'), rawBody(completeConnectBody)),
        request('POST', fc.constant('/api/v1/accounts'), rawBody(credentialsBody)),
        request('DELETE', segment.map((id) => `/api/v1/accounts/${id}`)),
      ),
      1_500,
    ), 120_000);
  it('the path parameters of every other route: webhooks, comment threads and replies, account boards', () => {
    const platformSegment = fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...PLATFORMS) }, { weight: 1, arbitrary: segment });
    const webhookPath = (suffix = '') => segment.map((id) => `/api/v1/webhooks/${id}${suffix}`);
    return fuzz(
      'path parameters',
      fc.oneof(
        request('GET', webhookPath()),
        request('PATCH', webhookPath(), rawBody(json)),
        request('DELETE', webhookPath()),
        request('POST', fc.constantFrom('/rotate-secret', '/test', '/replay').chain((suffix) => webhookPath(suffix)), rawBody(json)),
        request('GET', webhookPath('/deliveries')),
        request('POST', fc.tuple(segment, segment).map(([id, deliveryId]) => `/api/v1/webhooks/${id}/deliveries/${deliveryId}/redeliver`)),
        request('GET', fc.tuple(platformSegment, segment).map(([platform, commentId]) => `/api/v1/comments/${platform}/${commentId}/replies`)),
        request('DELETE', fc.tuple(platformSegment, segment, segment).map(([platform, commentId, replyId]) => `/api/v1/comments/${platform}/${commentId}/replies/${replyId}`)),
        request('GET', segment.map((id) => `/api/v1/accounts/${id}/boards`)),
      ),
      1_000,
    );
  }, 120_000);
  it('the Meta webhook (handshake and deliveries, signed or not)', () =>
    fuzz(
      'meta webhook',
      fc.oneof({ weight: 1, arbitrary: request('GET', fc.constant('/webhooks/meta')) }, { weight: 3, arbitrary: signedWebhook }, { weight: 1, arbitrary: request('POST', fc.constant('/webhooks/meta'), rawBody(metaPayload)) }),
      1_000,
    ), 60_000);
  it('public routes, documents and paths that are no route', () =>
    fuzz(
      'public and unknown routes',
      request(
        'GET',
        fc.oneof(
          fc.constantFrom('/health/live', '/health/ready', '/metrics', '/api/openapi.json', '/api/docs', '/', '/api', '/api/v1', '/api/v2/posts', '//api/v1/posts', '/api/v1/posts/', '/API/V1/POSTS'),
          segment.map((s) => `/${s}`),
          fc.array(segment, { maxLength: 5 }).map((parts) => `/api/v1/${parts.join('/')}`),
        ),
      ),
      800,
    ), 60_000);
});

/**
 * What encodeURIComponent gives, character by character; a lone surrogate, which it cannot
 * encode, becomes the single invalid byte a careless client would send (both reach servers).
 * Every other character is encoded, so no path begins like an authority ("//", "/\\"), which
 * an HTTP client's URL parser (and the in-process injection's) would read as a host.
 */
function encodeSegment(text: string): string {
  return Array.from(text, (char) => {
    try {
      return encodeURIComponent(char);
    } catch {
      return `%${char.charCodeAt(0).toString(16).padStart(2, '0').slice(-2)}`;
    }
  }).join('');
}

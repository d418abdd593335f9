import 'reflect-metadata';
import { randomBytes, randomUUID } from 'node:crypto';
import { connect, NatsConnection } from 'nats';
import { Pool } from 'pg';
import { CommentListItem, CreatePostResponse, EventEnvelope, Platform, POST_STATUSES, PostListItem, ReplyResult, Subjects } from '@app/contracts';
import { RELAY_CHECKPOINT } from '@app/event-relay';
import { comparePositions, parsePosition, START } from '@app/event-store';
import { metaSignature } from '../apps/gateway/src/comments/meta-webhook';
import { RunningPlatformSandbox, startPlatformSandbox, trustSandboxCa, type FaultRequest, type SandboxItem } from '@app/platform-sandbox';
import { describeReport, isHealthy, verifyProjections } from '../apps/projector/src/verify/verify-projections';
import { connectSandboxAccount } from '../tools/local/connect-sandbox-account';
import { createBenchDatabase, NATS_URL, startService } from './bench-environment';
import { feedWebhook } from './meta-webhook';
import { runScript } from './run-script';
import { percentile } from './stats';

/**
 * npm run soak (issue 16, part 6; not part of npm test): mixed traffic against the service run one
 * process per app (bench-environment.ts) with the platform sandbox and its media host, for
 * SOAK_SECONDS (60) at SOAK_CONCURRENCY (16), while a fault injector adds platform latency, lost
 * answers (the post is made, the answer never comes) and 503s through the sandbox's control API
 * (POST /_sandbox/faults). Then, once every post has had time to become final (at most
 * SOAK_SETTLE_SECONDS, 90), it reconciles everything it was told against what is stored and what
 * went out, prints the figures, and exits 1 on any violation:
 *   - no 5xx, no timeout, every answer one the operation documents, every error in the one shape;
 *   - every post answered 201/202 is in the list exactly once (walked with cursors), final, and
 *     consistent with its results; a deleted one is not;
 *   - each success result is exactly one item on the platform with that id, each failed one has
 *     none (no duplicate publication, no live post reported failed), nothing else was published;
 *   - every comment ingested by webhook is listed, every reply answered 200 is one reply on the
 *     platform and shows as replied;
 *   - every stored event is on the JetStream stream exactly once, under its own id;
 *   - every read-model row equals a fresh fold of its stream (verify-projections), and no event is
 *     appended once the traffic has settled.
 */
const SECONDS = positiveNumber('SOAK_SECONDS', 60);
const CONCURRENCY = positiveNumber('SOAK_CONCURRENCY', 16);
const SETTLE_SECONDS = positiveNumber('SOAK_SETTLE_SECONDS', 90);
/** Twice COMMAND_TIMEOUT_MS (10 s): an answer later than that is a hang. */
const REQUEST_TIMEOUT_MS = 20_000;
const FAULT_EVERY_MS = 2_000;
const META_APP_SECRET = 'soak-meta-app-secret';
const PLATFORMS: Platform[] = ['x', 'facebook', 'linkedin', 'bluesky', 'mastodon'];
/** 150 KB pictures: under every platform's image limit (Bluesky's 1 MB is the smallest). */
const IMAGE_QUERY = 'bytes=150000&width=1200&height=800';
const SAMPLES_PER_VIOLATION = 3;
/** What makes a post (and a reply) recognisable on the platforms: no character any platform rewrites. */
const TOKEN = /soak-[0-9a-f]+-\d+/;

function positiveNumber(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];
const chance = (p: number) => Math.random() < p;
const between = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function someOf<T>(items: readonly T[], min: number, max: number): T[] {
  const shuffled = [...items].sort(() => Math.random() - 0.5);
  return shuffled.slice(0, between(min, Math.min(max, items.length)));
}

interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
}

interface Request {
  method: string;
  path: string;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as is (malformed bodies), with `contentType`. */
  raw?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** false: no Authorization header. */
  authenticated?: boolean;
}

/** What every answer was, and every rule an answer or the final state broke. */
class Ledger {
  readonly latencies = new Map<string, number[]>();
  readonly statuses = new Map<number, number>();
  readonly violations = new Map<string, { count: number; samples: string[] }>();
  timeouts = 0;
  transportErrors = 0;

  record(operation: string, status: number, ms: number): void {
    const latencies = this.latencies.get(operation) ?? [];
    latencies.push(ms);
    this.latencies.set(operation, latencies);
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
  }

  violation(kind: string, detail: string): void {
    const entry = this.violations.get(kind) ?? { count: 0, samples: [] };
    entry.count++;
    if (entry.samples.length < SAMPLES_PER_VIOLATION) entry.samples.push(detail);
    this.violations.set(kind, entry);
  }

  requests(): number {
    return [...this.statuses.values()].reduce((a, b) => a + b, 0);
  }

  byClass(): Record<string, number> {
    const classes: Record<string, number> = { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 };
    for (const [status, count] of this.statuses) {
      const statusClass = `${Math.floor(status / 100)}xx`;
      classes[statusClass] = (classes[statusClass] ?? 0) + count;
    }
    return classes;
  }
}

/** The answer's JSON; its text when it is not JSON (then it is not in our error shape either). */
function jsonOrText(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function errorCodeOf(body: unknown): string | undefined {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof error?.code === 'string' && typeof error.message === 'string' ? error.code : undefined;
}

/** A post this run created, as the answers told it. */
interface TrackedPost {
  id: string;
  token: string;
  mode: 'draft' | 'scheduled' | 'publishNow';
  accountIds: string[];
  scheduledAt: string | null;
  media: number;
  /** The content of the last create or edit answered with success. */
  content: string;
  deleted: boolean;
  /** An edit or delete is under way: one at a time per post, so the last answer is the last change. */
  busy: boolean;
}

interface SoakAccount {
  id: string;
  platform: Platform;
  /** How the API names it. */
  reference: string;
  /** The sandbox identity key its items are filed under. */
  sandboxKey: string;
}

interface MalformedCase {
  name: string;
  request: () => Request;
  /** Each acceptable status with its error code. */
  expected: Array<[number, string]>;
}

class Soak {
  readonly ledger = new Ledger();
  readonly posts = new Map<string, TrackedPost>();
  /** Facebook items our posts put live: what comments are added under. */
  readonly facebookItems: string[] = [];
  /** Comments whose webhook was answered `received: 1`. */
  readonly ingested = new Set<string>();
  /** Unreplied comments seen in the list. */
  readonly replyCandidates = new Set<string>();
  readonly replies: Array<{ commentId: string; message: string; replyId: string }> = [];
  readonly faultsInjected = new Map<string, number>();
  private sequence = 0;
  private readonly runId = randomBytes(3).toString('hex');

  constructor(
    private readonly gateway: string,
    private readonly key: string,
    readonly sandbox: RunningPlatformSandbox,
    readonly accounts: SoakAccount[],
  ) {}

  nextToken(): string {
    return `soak-${this.runId}-${++this.sequence}`;
  }

  /** One request: its latency filed under `group` (the operation unless given), its status checked against `accepted`. */
  async call(operation: string, request: Request, accepted: number[], group = operation): Promise<Answer | null> {
    const headers: Record<string, string> = { ...request.headers };
    if (request.authenticated !== false) headers.authorization = `Bearer ${this.key}`;
    let body: string | undefined;
    if (request.raw !== undefined) {
      body = request.raw;
      headers['content-type'] = request.contentType ?? 'application/json';
    } else if (request.json !== undefined) {
      body = JSON.stringify(request.json);
      headers['content-type'] = 'application/json';
    }
    const started = performance.now();
    let response: Response;
    let parsed: unknown = null;
    try {
      response = await fetch(`${this.gateway}${request.path}`, { method: request.method, headers, body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      parsed = jsonOrText(await response.text());
    } catch (error) {
      if ((error as Error).name === 'TimeoutError') {
        this.ledger.timeouts++;
        this.ledger.violation('timeout', `${operation} ${request.method} ${request.path.slice(0, 80)}: no answer in ${REQUEST_TIMEOUT_MS} ms`);
      } else {
        this.ledger.transportErrors++;
        this.ledger.violation('transport_error', `${operation}: ${(error as Error).message}`);
      }
      return null;
    }
    this.ledger.record(group, response.status, performance.now() - started);
    const code = errorCodeOf(parsed);
    if (response.status >= 500) this.ledger.violation('server_error', `${operation} → ${response.status} ${JSON.stringify(parsed).slice(0, 200)}`);
    else if (!accepted.includes(response.status)) this.ledger.violation('unexpected_status', `${operation} → ${response.status} ${JSON.stringify(parsed).slice(0, 200)}`);
    if (response.status >= 400 && code === undefined) this.ledger.violation('error_shape', `${operation} → ${response.status} ${JSON.stringify(parsed).slice(0, 200)}`);
    return { status: response.status, body: parsed, headers: response.headers };
  }

  private references(min: number, max: number, platforms: readonly Platform[] = PLATFORMS): SoakAccount[] {
    return someOf(
      this.accounts.filter((a) => platforms.includes(a.platform)),
      min,
      max,
    );
  }

  private track(answer: Answer | null, mode: TrackedPost['mode'], token: string, content: string, accounts: SoakAccount[], scheduledAt: string | null, media: number): void {
    if (!answer || (answer.status !== 201 && answer.status !== 202)) return;
    const created = answer.body as CreatePostResponse;
    this.posts.set(created.post.id, { id: created.post.id, token, mode, accountIds: accounts.map((a) => a.id), scheduledAt, media, content, deleted: false, busy: false });
    if (answer.status !== 201 || mode !== 'publishNow') return;
    if (created.results.length !== accounts.length) this.ledger.violation('results_count', `post ${created.post.id}: ${created.results.length} results for ${accounts.length} accounts`);
    for (const result of created.results) if (result.platform === 'facebook' && result.success && result.postId) this.facebookItems.push(result.postId);
  }

  async createDraft(): Promise<void> {
    const token = this.nextToken();
    const content = `${token} a draft to finish later`;
    const accounts = this.references(1, 3);
    const answer = await this.call('POST /posts (draft)', { method: 'POST', path: '/api/v1/posts', json: { content, accounts: accounts.map((a) => a.reference) } }, [201]);
    this.track(answer, 'draft', token, content, accounts, null, 0);
  }

  async createScheduled(): Promise<void> {
    const token = this.nextToken();
    const content = `${token} scheduled in a few seconds`;
    const accounts = this.references(1, 3);
    const scheduledAt = new Date(Date.now() + between(2_000, 6_000)).toISOString();
    const answer = await this.call('POST /posts (scheduled)', { method: 'POST', path: '/api/v1/posts', json: { content, accounts: accounts.map((a) => a.reference), scheduledAt } }, [201]);
    this.track(answer, 'scheduled', token, content, accounts, scheduledAt, 0);
  }

  async publishNow(): Promise<void> {
    const token = this.nextToken();
    const content = `${token} live now ${pick(['', '🚀', 'à bientôt', '— with a dash'])}`.trim();
    const accounts = this.references(2, 5);
    const answer = await this.call('POST /posts (publishNow)', { method: 'POST', path: '/api/v1/posts', json: { content, accounts: accounts.map((a) => a.reference), publishNow: true } }, [201, 202]);
    this.track(answer, 'publishNow', token, content, accounts, null, 0);
  }

  /** One to three pictures from the sandbox's media host; one publish in ten has one the host will not serve (503). */
  async publishNowWithMedia(): Promise<void> {
    const token = this.nextToken();
    const content = `${token} with pictures`;
    const accounts = this.references(1, 3);
    const mediaUrls = Array.from({ length: between(1, 3) }, (_, i) => `${this.sandbox.mediaUrl}/media/${token}-${i}.jpg?${IMAGE_QUERY}`);
    if (chance(0.1)) mediaUrls[0] += '&status=503';
    const altText = mediaUrls.map((_, i) => (i === 0 ? 'A soak test picture' : null));
    const answer = await this.call(
      'POST /posts (publishNow + media)',
      { method: 'POST', path: '/api/v1/posts', json: { content, accounts: accounts.map((a) => a.reference), publishNow: true, mediaUrls, altText } },
      [201, 202],
    );
    this.track(answer, 'publishNow', token, content, accounts, null, mediaUrls.length);
  }

  /** A draft or scheduled post no other worker is editing or deleting, marked busy. */
  private claimEditable(): TrackedPost | null {
    const candidates = [...this.posts.values()].filter((p) => p.mode !== 'publishNow' && !p.deleted && !p.busy);
    if (candidates.length === 0) return null;
    const post = pick(candidates);
    post.busy = true;
    return post;
  }

  /**
   * GET the post for its ETag, then PATCH it with If-Match (one in five with a stale version: 412).
   * A draft changes only by our edits, one at a time: it must take the edit. A scheduled post may
   * fire meanwhile (412: its version moved; 409: no longer editable).
   */
  async edit(): Promise<void> {
    const post = this.claimEditable();
    if (!post) return this.createDraft();
    try {
      const current = await this.call('GET /posts/:id', { method: 'GET', path: `/api/v1/posts/${post.id}` }, [200]);
      if (current?.status !== 200) return;
      const stale = chance(0.2);
      const content = `${post.token} edited ${++this.sequence}`;
      const ifMatch = stale ? '"999999"' : (current.headers.get('etag') ?? '');
      const accepted = stale ? (post.mode === 'draft' ? [412] : [412, 409]) : post.mode === 'draft' ? [200] : [200, 409, 412];
      const answer = await this.call('PATCH /posts/:id', { method: 'PATCH', path: `/api/v1/posts/${post.id}`, json: { content }, headers: { 'if-match': ifMatch } }, accepted);
      if (answer?.status === 200) post.content = content;
    } finally {
      post.busy = false;
    }
  }

  async delete(): Promise<void> {
    const post = this.claimEditable();
    if (!post) return this.createDraft();
    try {
      // A scheduled post whose time came is no longer deletable (409); a draft always is.
      const answer = await this.call('DELETE /posts/:id', { method: 'DELETE', path: `/api/v1/posts/${post.id}` }, post.mode === 'draft' ? [204] : [204, 409]);
      if (answer?.status === 204) post.deleted = true;
    } finally {
      post.busy = false;
    }
  }

  async getPost(): Promise<void> {
    const posts = [...this.posts.values()];
    if (posts.length === 0) return this.createDraft();
    const post = pick(posts);
    const deletedBefore = post.deleted;
    // A delete under way may land before or after this read.
    await this.call('GET /posts/:id', { method: 'GET', path: `/api/v1/posts/${post.id}` }, deletedBefore ? [404] : post.busy ? [200, 404] : [200]);
  }

  /** Up to three pages with cursors, any page size, one walk in three filtered by status; checks order and no repeat. */
  async listPosts(): Promise<void> {
    const status = chance(0.35) ? pick(POST_STATUSES) : undefined;
    const limit = chance(0.3) ? undefined : between(1, 50);
    const seen = new Set<string>();
    let previous: string | null = null;
    let cursor: string | null = null;
    for (let page = 0; page < 3; page++) {
      const query = new URLSearchParams();
      if (status) query.set('status', status);
      if (limit) query.set('limit', String(limit));
      if (cursor) query.set('cursor', cursor);
      const answer = await this.call('GET /posts (page)', { method: 'GET', path: `/api/v1/posts?${query}` }, [200]);
      if (answer?.status !== 200) return;
      const { posts, nextCursor } = answer.body as { posts: PostListItem[]; nextCursor: string | null };
      for (const post of posts) {
        if (seen.has(post.id)) this.ledger.violation('list_repeats_post', `post ${post.id} twice in one walk`);
        if (status && post.status !== status) this.ledger.violation('list_filter', `status=${status} listed a ${post.status} post`);
        if (previous !== null && post.createdAt > previous) this.ledger.violation('list_order', `post ${post.id} (${post.createdAt}) after one created at ${previous}`);
        seen.add(post.id);
        previous = post.createdAt;
      }
      if (!nextCursor) return;
      cursor = nextCursor;
    }
  }

  async listComments(): Promise<void> {
    const filter = pick(['', 'platform=facebook', 'unreplied=1']);
    let cursor: string | null = null;
    for (let page = 0; page < 2; page++) {
      const query = new URLSearchParams(filter);
      if (cursor) query.set('cursor', cursor);
      const answer = await this.call('GET /comments (page)', { method: 'GET', path: `/api/v1/comments?${query}` }, [200]);
      if (answer?.status !== 200) return;
      const { comments, nextCursor } = answer.body as { comments: CommentListItem[]; nextCursor: string | null };
      for (const comment of comments) if (!comment.replied && this.ingested.has(comment.platformCommentId)) this.replyCandidates.add(comment.platformCommentId);
      if (!nextCursor) return;
      cursor = nextCursor;
    }
  }

  /** Someone comments under one of our Facebook posts (sandbox control API), and Meta's signed webhook tells the service. */
  async ingestComment(): Promise<void> {
    if (this.facebookItems.length === 0) return this.publishNow();
    const parentId = pick(this.facebookItems);
    const author = `fan_${between(1, 500)}`;
    const text = `${pick(['Love this!', 'When does it ship?', 'This is broken for me', 'Great news'])} ${this.nextToken()}`;
    const added = await fetch(`${this.sandbox.url}/_sandbox/comments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ platform: 'facebook', parentId, text, author }) });
    if (added.status !== 201) throw new Error(`the sandbox refused a comment under ${parentId}: ${added.status} ${await added.text()}`);
    const { platformCommentId } = (await added.json()) as { platformCommentId: string };
    const raw = feedWebhook(parentId, [{ commentId: platformCommentId, text, author }]);
    const answer = await this.call('POST /webhooks/meta', { method: 'POST', path: '/webhooks/meta', raw, headers: { 'x-hub-signature-256': metaSignature(raw, META_APP_SECRET) }, authenticated: false }, [200]);
    if (answer?.status !== 200) return;
    if ((answer.body as { received?: number }).received === 1) this.ingested.add(platformCommentId);
    else this.ledger.violation('webhook_comment_dropped', `comment ${platformCommentId} under ${parentId}: ${JSON.stringify(answer.body)}`);
  }

  /** A reply to a comment the list showed unreplied; 429 once the key's 20 replies a minute are spent. */
  async reply(): Promise<void> {
    const commentId = [...this.replyCandidates][0];
    if (!commentId) return this.listComments();
    this.replyCandidates.delete(commentId);
    const message = `Thanks for writing ${this.nextToken()}`;
    const answer = await this.call('POST /comments/reply', { method: 'POST', path: '/api/v1/comments/reply', json: { platform: 'facebook', commentId, message } }, [200, 429]);
    if (answer?.status === 200) this.replies.push({ commentId, message, replyId: (answer.body as ReplyResult).result.id });
    else if (answer?.status === 429) this.replyCandidates.add(commentId);
  }

  async malformed(): Promise<void> {
    const sample = pick(this.malformedCases());
    const answer = await this.call(`malformed: ${sample.name}`, sample.request(), sample.expected.map(([status]) => status), 'malformed requests');
    if (!answer || answer.status >= 500) return;
    const code = errorCodeOf(answer.body);
    if (!sample.expected.some(([status, expected]) => status === answer.status && expected === code)) {
      this.ledger.violation('malformed_code', `${sample.name} → ${answer.status} ${code}, expected ${sample.expected.map(([s, c]) => `${s} ${c}`).join(' or ')}`);
    }
  }

  private malformedCases(): MalformedCase[] {
    const account = JSON.stringify(this.accounts[0].reference);
    const post = (raw: string, contentType?: string): Request => ({ method: 'POST', path: '/api/v1/posts', raw, contentType });
    return [
      { name: 'lone surrogate', request: () => post(`{"content":"\\uD800","accounts":[${account}]}`), expected: [[400, 'invalid_body']] },
      { name: 'NUL in content', request: () => post(`{"content":"a\\u0000b","accounts":[${account}]}`), expected: [[400, 'invalid_body']] },
      { name: 'nested 10,000 deep', request: () => post(`{"content":"deep","accounts":[${account}],"extra":${'['.repeat(10_000)}${']'.repeat(10_000)}}`), expected: [[400, 'invalid_body']] },
      { name: 'truncated JSON', request: () => post(`{"content":"half`), expected: [[400, 'invalid_body']] },
      { name: 'text/plain body', request: () => post('hello', 'text/plain'), expected: [[415, 'unsupported_media_type']] },
      { name: 'body over 512 KiB', request: () => post(JSON.stringify({ content: 'x'.repeat(600_000), accounts: [this.accounts[0].reference] })), expected: [[413, 'payload_too_large']] },
      { name: 'content over 10,000', request: () => post(JSON.stringify({ content: 'x'.repeat(10_001), accounts: [this.accounts[0].reference] })), expected: [[400, 'content_too_long']] },
      { name: 'scheduledAt in the past', request: () => post(JSON.stringify({ content: 'late', accounts: [this.accounts[0].reference], scheduledAt: '2020-01-01T00:00:00Z' })), expected: [[400, 'scheduled_at_in_past']] },
      { name: 'scheduledAt and publishNow', request: () => post(JSON.stringify({ content: 'both', accounts: [this.accounts[0].reference], scheduledAt: new Date(Date.now() + 60_000).toISOString(), publishNow: true })), expected: [[400, 'scheduled_and_publish_now']] },
      { name: 'unknown account', request: () => post(JSON.stringify({ content: 'who', accounts: ['x:@nobody_here'] })), expected: [[400, 'unknown_account']] },
      { name: 'cursor not issued', request: () => ({ method: 'GET', path: '/api/v1/posts?cursor=bm90LWEtY3Vyc29y' }), expected: [[400, 'invalid_query']] },
      { name: 'limit 0', request: () => ({ method: 'GET', path: '/api/v1/posts?limit=0' }), expected: [[400, 'invalid_query']] },
      { name: 'edit unknown post', request: () => ({ method: 'PATCH', path: `/api/v1/posts/${randomUUID()}`, json: { content: 'nothing' } }), expected: [[404, 'not_found']] },
      { name: 'If-Match not ours', request: () => ({ method: 'PATCH', path: `/api/v1/posts/${randomUUID()}`, json: { content: 'x' }, headers: { 'if-match': 'W/"abc"' } }), expected: [[400, 'invalid_if_match']] },
      { name: 'post id of 300 characters', request: () => ({ method: 'GET', path: `/api/v1/posts/${'a'.repeat(300)}` }), expected: [[404, 'not_found']] },
      { name: 'no credentials', request: () => ({ method: 'GET', path: '/api/v1/posts', authenticated: false }), expected: [[401, 'unauthenticated']] },
      { name: 'unsigned webhook', request: () => ({ ...post('{"object":"page","entry":[]}'), path: '/webhooks/meta', authenticated: false, headers: { 'x-hub-signature-256': 'sha256=00' } }), expected: [[401, 'webhook_signature_invalid']] },
      {
        name: 'reply to a comment never stored',
        request: () => ({ method: 'POST', path: '/api/v1/comments/reply', json: { platform: 'facebook', commentId: `${Date.now()}_1`, message: 'hello' } }),
        expected: [[404, 'unknown_comment'], [429, 'rate_limited']],
      },
    ];
  }

  /** One fault on one platform's publish call, through the sandbox's HTTP control API. */
  async injectFault(): Promise<void> {
    const platform = pick(PLATFORMS);
    const faults: Array<[string, Omit<FaultRequest, 'platform'>]> = [
      ['latency 0.3–2 s (8 publishes)', { operation: 'publish', times: 8, fault: { type: 'latency', ms: between(300, 2_000) } }],
      ['lost answer (post made)', { operation: 'publish', times: 1, fault: { type: 'drop' } }],
      ['503', { operation: 'publish', times: 1, fault: { type: 'error', status: 503 } }],
    ];
    const [name, fault] = pick(faults);
    const response = await fetch(`${this.sandbox.url}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ platform, ...fault }) });
    if (response.status !== 201) throw new Error(`the sandbox refused a fault: ${response.status} ${await response.text()}`);
    this.faultsInjected.set(name, (this.faultsInjected.get(name) ?? 0) + 1);
  }

  async clearFaults(): Promise<void> {
    const response = await fetch(`${this.sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
    if (response.status !== 204) throw new Error(`the sandbox did not clear its faults: ${response.status}`);
  }

  /** Every post of the workspace, page after page (50 a page); violations for a repeat. */
  async walkPosts(): Promise<Map<string, PostListItem>> {
    const posts = new Map<string, PostListItem>();
    for (let cursor: string | null = null; ; ) {
      const answer = await this.call('GET /posts (reconcile)', { method: 'GET', path: `/api/v1/posts?limit=50${cursor ? `&cursor=${cursor}` : ''}` }, [200]);
      if (answer?.status !== 200) throw new Error('the post list could not be walked');
      const page = answer.body as { posts: PostListItem[]; nextCursor: string | null };
      for (const post of page.posts) {
        if (posts.has(post.id)) this.ledger.violation('list_repeats_post', `post ${post.id} twice in the full walk`);
        posts.set(post.id, post);
      }
      if (!page.nextCursor) return posts;
      cursor = page.nextCursor;
    }
  }

  async walkComments(): Promise<Map<string, CommentListItem>> {
    const comments = new Map<string, CommentListItem>();
    for (let cursor: string | null = null; ; ) {
      const answer = await this.call('GET /comments (reconcile)', { method: 'GET', path: `/api/v1/comments?limit=50${cursor ? `&cursor=${cursor}` : ''}` }, [200]);
      if (answer?.status !== 200) throw new Error('the comment list could not be walked');
      const page = answer.body as { comments: CommentListItem[]; nextCursor: string | null };
      for (const comment of page.comments) comments.set(comment.platformCommentId, comment);
      if (!page.nextCursor) return comments;
      cursor = page.nextCursor;
    }
  }
}

/** Weighted mix of operations, roughly what a dashboard and an integration do together. */
const MIX: Array<[number, (soak: Soak) => Promise<void>]> = [
  [12, (s) => s.createDraft()],
  [10, (s) => s.createScheduled()],
  [12, (s) => s.publishNow()],
  [6, (s) => s.publishNowWithMedia()],
  [10, (s) => s.edit()],
  [5, (s) => s.delete()],
  [5, (s) => s.getPost()],
  [14, (s) => s.listPosts()],
  [6, (s) => s.listComments()],
  [5, (s) => s.ingestComment()],
  [3, (s) => s.reply()],
  [12, (s) => s.malformed()],
];
const MIX_TOTAL = MIX.reduce((sum, [weight]) => sum + weight, 0);

function nextOperation(): (soak: Soak) => Promise<void> {
  let roll = Math.random() * MIX_TOTAL;
  for (const [weight, operation] of MIX) if ((roll -= weight) < 0) return operation;
  return MIX[MIX.length - 1][1];
}

/** A tracked post not yet where it must end: publishing, or scheduled (every schedule of this run is seconds ahead). */
function unsettled(post: TrackedPost, listed: PostListItem | undefined): boolean {
  if (post.deleted || !listed) return false;
  return listed.status === 'publishing' || listed.status === 'scheduled';
}

/** Posts: each answered one listed, final, consistent with its results; deleted ones gone. */
function reconcilePosts(soak: Soak, listed: Map<string, PostListItem>): void {
  const { ledger } = soak;
  for (const post of soak.posts.values()) {
    const item = listed.get(post.id);
    if (post.deleted) {
      if (item) ledger.violation('deleted_post_listed', `post ${post.id} answered 204 to DELETE but is listed (${item.status})`);
      continue;
    }
    if (!item) {
      ledger.violation('post_missing', `post ${post.id} (${post.mode}) answered 201/202 but is not in the list`);
      continue;
    }
    if (post.mode === 'draft') {
      if (item.status !== 'draft' || item.results.length > 0) ledger.violation('draft_changed', `draft ${post.id} is ${item.status} with ${item.results.length} results`);
      if (item.content !== post.content) ledger.violation('lost_edit', `draft ${post.id} shows "${item.content}", the last accepted edit was "${post.content}"`);
      continue;
    }
    if (!['published', 'partial', 'failed'].includes(item.status)) {
      ledger.violation('post_not_final', `post ${post.id} (${post.mode}${post.scheduledAt ? ` at ${post.scheduledAt}` : ''}) is still ${item.status}`);
      continue;
    }
    const succeeded = item.results.filter((r) => r.success).length;
    const expected = succeeded === item.results.length ? 'published' : succeeded === 0 ? 'failed' : 'partial';
    if (item.results.length !== post.accountIds.length || item.status !== expected) {
      ledger.violation('results_inconsistent', `post ${post.id} is ${item.status} with ${succeeded}/${item.results.length} successes for ${post.accountIds.length} accounts`);
    }
  }
}

/**
 * The platforms against the results: each success is exactly one item with that id (and the
 * post's media), each failure is none, and nothing was published for a draft, a deleted post or
 * a post this run never created.
 */
function reconcilePublications(soak: Soak, listed: Map<string, PostListItem>): { items: number; successes: number; failures: number } {
  const { ledger } = soak;
  const byToken = new Map(Array.from(soak.posts.values(), (post) => [post.token, post]));
  const keyOf = new Map(soak.accounts.map((a) => [a.id, a.sandboxKey]));
  const items = new Map<string, SandboxItem[]>();
  const posts = soak.sandbox.control.published({ kind: 'post' });
  for (const item of posts) {
    const token = TOKEN.exec(item.text)?.[0];
    const post = token ? byToken.get(token) : undefined;
    if (!post) {
      ledger.violation('unexpected_publication', `${item.platform} item ${item.id} "${item.text.slice(0, 60)}" belongs to no post of this run`);
      continue;
    }
    if (post.mode === 'draft' || post.deleted) ledger.violation('published_without_request', `${item.platform} item ${item.id} for ${post.deleted ? 'deleted' : 'draft'} post ${post.id}`);
    const key = `${post.id}|${item.account}`;
    items.set(key, [...(items.get(key) ?? []), item]);
  }
  for (const [key, found] of items) if (found.length > 1) ledger.violation('duplicate_publication', `${key}: ${found.length} items (${found.map((i) => i.id).join(', ')})`);
  let successes = 0;
  let failures = 0;
  for (const post of soak.posts.values()) {
    const item = listed.get(post.id);
    if (!item || post.deleted || post.mode === 'draft') continue;
    for (const result of item.results) {
      const found = items.get(`${post.id}|${keyOf.get(result.accountId)}`) ?? [];
      if (result.success) {
        successes++;
        if (found.length === 0) ledger.violation('success_without_item', `post ${post.id} on ${result.platform}: success ${result.postId}, nothing on the platform`);
        else if (found[0].id !== result.postId) ledger.violation('result_id_mismatch', `post ${post.id} on ${result.platform}: result ${result.postId}, item ${found[0].id}`);
        else if (found[0].media.length + found[0].mediaUrls.length !== post.media) {
          ledger.violation('media_count', `post ${post.id} on ${result.platform}: ${post.media} media sent, the item carries ${found[0].media.length} uploads and ${found[0].mediaUrls.length} urls`);
        }
      } else {
        failures++;
        if (found.length > 0) ledger.violation('live_post_reported_failed', `post ${post.id} on ${result.platform}: ${result.error?.code} but item ${found[0].id} is live`);
      }
    }
  }
  return { items: posts.length, successes, failures };
}

/** Comments: every ingested one listed, every reply answered 200 recorded and on the platform once. */
function reconcileComments(soak: Soak, listed: Map<string, CommentListItem>): void {
  const { ledger } = soak;
  for (const id of soak.ingested) if (!listed.has(id)) ledger.violation('comment_missing', `comment ${id} was received by webhook but is not listed`);
  const platformComments = soak.sandbox.control.published({ kind: 'comment' });
  for (const reply of soak.replies) {
    if (listed.get(reply.commentId)?.replied !== true) ledger.violation('reply_not_recorded', `comment ${reply.commentId} was answered 200 but is not replied`);
    const token = TOKEN.exec(reply.message)![0];
    const onPlatform = platformComments.filter((c) => TOKEN.exec(c.text)?.[0] === token);
    if (onPlatform.length !== 1 || onPlatform[0].id !== reply.replyId || onPlatform[0].parentId !== reply.commentId) {
      ledger.violation('reply_on_platform', `reply ${reply.replyId} to ${reply.commentId}: ${onPlatform.length} items on the platform (${onPlatform.map((c) => `${c.id} under ${c.parentId}`).join(', ')})`);
    }
  }
}

interface RelayFigures {
  stored: number;
  relayed: number;
  distinctIds: number;
}

/**
 * Store against JetStream: every stored event relayed exactly once under its own id. The relay
 * publishes each event with Nats-Msg-Id = its event id (libs/event-relay/src/relay-to-jetstream.ts), then moves
 * its checkpoint; JetStream drops a resend inside its duplicate window. So: every event up to the
 * relay's checkpoint is on the stream, a message count over the distinct ids is an event relayed
 * twice, two ids for one (stream, revision) an event relayed under another id, and an id the store
 * does not hold was never an event. Read in that order (checkpoint, stream, store), events the
 * service appends meanwhile cannot look missing or unknown.
 */
async function reconcileRelay(soak: Soak, pool: Pool, nc: NatsConnection, subjects: Subjects): Promise<RelayFigures> {
  const { ledger } = soak;
  const jsm = await nc.jetstreamManager();
  const storedCount = async () => (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0].n;
  // The relay catches up within a second or two once the traffic stops.
  const expected = await storedCount();
  let state = (await jsm.streams.info(subjects.eventStreamName)).state;
  for (const deadline = Date.now() + 30_000; state.messages < expected && Date.now() < deadline; await sleep(500)) {
    state = (await jsm.streams.info(subjects.eventStreamName)).state;
  }
  const { rows: checkpointRows } = await pool.query<{ position: string }>('SELECT position FROM checkpoints WHERE name = $1', [RELAY_CHECKPOINT]);
  const checkpoint = checkpointRows[0] ? parsePosition(checkpointRows[0].position) : START;
  state = (await jsm.streams.info(subjects.eventStreamName)).state;

  const relayedIds = new Map<string, number>();
  const idsByRevision = new Map<string, Set<string>>();
  if (state.messages > 0) {
    const consumer = await nc.jetstream().consumers.get(subjects.eventStreamName);
    const messages = await consumer.consume();
    for await (const message of messages) {
      const envelope = message.json<EventEnvelope>();
      const msgId = message.headers?.get('Nats-Msg-Id');
      if (msgId !== envelope.eventId) ledger.violation('relay_msg_id', `message ${message.seq}: Nats-Msg-Id ${msgId}, event ${envelope.eventId}`);
      relayedIds.set(envelope.eventId, (relayedIds.get(envelope.eventId) ?? 0) + 1);
      const revision = `${envelope.streamId}@${envelope.revision}`;
      idsByRevision.set(revision, (idsByRevision.get(revision) ?? new Set()).add(envelope.eventId));
      if (message.seq >= state.last_seq) break;
    }
    await messages.close();
  }

  const { rows } = await pool.query<{ event_id: string; stream_id: string; stream_position: string; commit: string; prepare: string }>(
    'SELECT event_id, stream_id, stream_position, transaction_id::text AS commit, global_position::text AS prepare FROM events',
  );
  const stored = new Set(rows.map((row) => row.event_id));
  for (const [id, times] of relayedIds) if (times > 1) ledger.violation('event_relayed_twice', `event ${id} on the stream ${times} times`);
  for (const [revision, ids] of idsByRevision) if (ids.size > 1) ledger.violation('event_relayed_under_two_ids', `${revision}: ${[...ids].join(', ')}`);
  for (const row of rows) {
    const relayedByNow = comparePositions({ commit: BigInt(row.commit), prepare: BigInt(row.prepare) }, checkpoint) <= 0;
    if (relayedByNow && !relayedIds.has(row.event_id)) ledger.violation('event_not_relayed', `${row.stream_id}@${row.stream_position} (${row.event_id})`);
  }
  for (const id of relayedIds.keys()) if (!stored.has(id)) ledger.violation('relayed_event_not_stored', id);
  return { stored: rows.length, relayed: state.messages, distinctIds: relayedIds.size };
}

const ms = (value: number) => (Number.isNaN(value) ? '—' : value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(1)} ms`);

async function main(): Promise<void> {
  const say = (line = '') => process.stdout.write(`${line}\n`);
  const sandbox = await startPlatformSandbox();
  const db = await createBenchDatabase(4);
  let service: Awaited<ReturnType<typeof startService>> | null = null;
  let nc: NatsConnection | null = null;
  try {
    const workspace = await db.store.createWorkspace('soak');
    const { key } = await db.store.createKey(workspace.id, ['read', 'write', 'publish', 'engage']);
    const accounts: SoakAccount[] = [];
    for (const platform of PLATFORMS) {
      const sandboxKey = `soak-${platform}`;
      const account = await connectSandboxAccount(db.accounts, sandbox, { workspaceId: workspace.id, platform, handle: `@soak_${platform}`, key: sandboxKey });
      accounts.push({ id: account.id, platform, reference: `${platform}:@soak_${platform}`, sandboxKey });
    }
    // The media host is on loopback: allowed here as in npm start, and its test CA trusted.
    const trust: NodeJS.ProcessEnv = { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS };
    trustSandboxCa(trust);
    service = await startService(db, ['projector', 'posts', 'accounts', 'publisher', 'comments', 'gateway'], {
      PLATFORM_SANDBOX_URL: sandbox.url,
      MEDIA_ALLOWED_HOSTS: new URL(sandbox.mediaUrl).host,
      NODE_EXTRA_CA_CERTS: trust.NODE_EXTRA_CA_CERTS ?? '',
      X_POOL_MONTHLY_POSTS: '1000000',
      META_APP_SECRET,
    });
    const soak = new Soak(service.url, key, sandbox, accounts);
    say(`soak: ${SECONDS} s of mixed traffic at concurrency ${CONCURRENCY} against ${service.url} (6 apps, one process each)`);

    // Traffic, with a fault injected every FAULT_EVERY_MS meanwhile.
    const started = Date.now();
    const until = started + SECONDS * 1000;
    const faults = (async () => {
      while (Date.now() < until) {
        await soak.injectFault();
        await sleep(FAULT_EVERY_MS);
      }
    })();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (Date.now() < until) await nextOperation()(soak);
      }),
    );
    await faults;
    const trafficSeconds = (Date.now() - started) / 1000;
    const trafficRequests = soak.ledger.requests();
    await soak.clearFaults();

    // Settle: until no post of ours is publishing or scheduled (at most SETTLE_SECONDS).
    const settleStarted = Date.now();
    let listed = await soak.walkPosts();
    while ([...soak.posts.values()].some((post) => unsettled(post, listed.get(post.id))) && Date.now() - settleStarted < SETTLE_SECONDS * 1000) {
      await sleep(1000);
      listed = await soak.walkPosts();
    }
    const settleSeconds = (Date.now() - settleStarted) / 1000;

    // Reconcile. Nothing should append events once the traffic has settled: checked at the end.
    const { rows: headRows } = await db.pool.query<{ head: string }>('SELECT coalesce(max(global_position), 0)::text AS head FROM events');
    reconcilePosts(soak, listed);
    const publications = reconcilePublications(soak, listed);
    reconcileComments(soak, await soak.walkComments());
    nc = await connect({ servers: NATS_URL, name: 'soak' });
    const subjects = new Subjects(service.namespace);
    const relay = await reconcileRelay(soak, db.pool, nc, subjects);
    const verification = await verifyProjections({ pool: db.pool, databaseUrl: db.url });
    const { rows: lateRows } = await db.pool.query<{ type: string; stream_id: string; n: number }>(
      'SELECT type, min(stream_id) AS stream_id, count(*)::int AS n FROM events WHERE global_position > $1 GROUP BY type',
      [headRows[0].head],
    );
    for (const late of lateRows) soak.ledger.violation('events_after_settle', `${late.n} × ${late.type} appended after the traffic settled (e.g. ${late.stream_id})`);
    // Publications whose answer was lost and that a lookup on the platform found (AccountPublished.reconciled).
    const { rows: reconciledRows } = await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE type = 'AccountPublished' AND (data->>'reconciled')::boolean`);
    if (!isHealthy(verification)) for (const line of describeReport(verification, SAMPLES_PER_VIOLATION)) soak.ledger.violation('projection_differs', line);

    // Figures.
    const { ledger } = soak;
    say();
    say(`requests: ${trafficRequests} answered in ${trafficSeconds.toFixed(0)} s of traffic (${(trafficRequests / trafficSeconds).toFixed(0)}/s), ${ledger.requests() - trafficRequests} more to reconcile`);
    say(`by status class: ${Object.entries(ledger.byClass()).map(([c, n]) => `${c} ${n}`).join(', ')}; timeouts ${ledger.timeouts}; transport errors ${ledger.transportErrors}`);
    say(`statuses: ${[...ledger.statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`).join(' ')}`);
    say(`faults injected on publish calls: ${[...soak.faultsInjected].map(([name, n]) => `${name} ×${n}`).join(', ')}`);
    say();
    say(`${'operation'.padEnd(40)} ${'count'.padStart(6)} ${'p50'.padStart(10)} ${'p99'.padStart(10)} ${'max'.padStart(10)}`);
    for (const [operation, latencies] of [...ledger.latencies].sort(([a], [b]) => a.localeCompare(b))) {
      latencies.sort((a, b) => a - b);
      say(`${operation.padEnd(40)} ${String(latencies.length).padStart(6)} ${ms(percentile(latencies, 50)).padStart(10)} ${ms(percentile(latencies, 99)).padStart(10)} ${ms(latencies[latencies.length - 1]).padStart(10)}`);
    }
    const tracked = [...soak.posts.values()];
    const finalStatuses = new Map<string, number>();
    for (const post of tracked) if (!post.deleted) finalStatuses.set(listed.get(post.id)?.status ?? 'missing', (finalStatuses.get(listed.get(post.id)?.status ?? 'missing') ?? 0) + 1);
    say();
    say(
      `posts answered: ${tracked.length} (drafts ${tracked.filter((p) => p.mode === 'draft').length}, scheduled ${tracked.filter((p) => p.mode === 'scheduled').length}, publishNow ${tracked.filter((p) => p.mode === 'publishNow').length}), ` +
        `deleted ${tracked.filter((p) => p.deleted).length}; listed ${listed.size}; final: ${[...finalStatuses].map(([s, n]) => `${s} ${n}`).join(', ')}; settled ${settleSeconds.toFixed(1)} s after the traffic`,
    );
    say(`platforms: ${publications.items} items published; results ${publications.successes} succeeded (${reconciledRows[0].n} found by a lookup after a lost answer), ${publications.failures} failed`);
    say(`comments: ${soak.ingested.size} ingested by webhook, ${soak.replies.length} replied`);
    say(`events: ${relay.stored} stored, ${relay.relayed} messages on ${subjects.eventStreamName}, ${relay.distinctIds} distinct event ids`);
    say(`projections: ${describeReport(verification, 0).join('; ')}`);
    say();
    if (ledger.violations.size === 0) {
      say('soak: no violation');
    } else {
      say('soak: VIOLATIONS');
      for (const [kind, { count, samples }] of ledger.violations) {
        say(`  ${kind} ×${count}`);
        for (const sample of samples) say(`    ${sample}`);
      }
      process.exitCode = 1;
    }
  } finally {
    service?.stop();
    // The run's JetStream stream goes with it (its namespace is never used again).
    if (nc && service) await (await nc.jetstreamManager()).streams.delete(new Subjects(service.namespace).eventStreamName);
    await nc?.close();
    await db.drop();
    await sandbox.close();
  }
}

runScript(main);

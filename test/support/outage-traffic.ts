import { NatsConnection } from 'nats';
import { Platform, PostStatus } from '@app/contracts';
import { until } from '@app/testing';
import { SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../apps/gateway/src/errors/api-exception.filter';
import { READINESS_CHECK_TIMEOUT_MS } from '../../libs/health/src/health.controller';
import { AppName } from '../../tools/local/in-process-stack';
import { TestStack } from './test-stack';

/**
 * The clients here send far more than 600 requests a minute on one key (traffic without
 * pause, then the list read until complete): the general rate limit, not under test, is off.
 */
export const NO_RATE_LIMIT = { rateLimitGeneralPerMinute: 0 };

/**
 * Short, so that "never a hang past COMMAND_TIMEOUT_MS" is checked at a scale a test can wait for.
 * A publishNow answer also waits for the read model and the outcomes (PROJECTION_WAIT_MS,
 * PUBLISH_WAIT_MS, sharing one deadline): both fit inside the command timeout.
 */
export const OUTAGE_COMMAND_TIMEOUT_MS = 3_000;

/**
 * The settings of a stack that goes through an outage. A PublishRequested that fails during the
 * outage is retried after a tenth of the ack wait, doubling (see retryDelayMs), five deliveries in
 * all: with 15 s the retries come 1.5, 3, 6 and 12 s apart, spanning the outage with room to spare
 * while the last one comes soon enough for the test to wait for it (the production default, 30 s,
 * spans about 45 s of outage).
 */
export const OUTAGE_STACK_OVERRIDES = {
  commandTimeoutMs: OUTAGE_COMMAND_TIMEOUT_MS,
  projectionWaitMs: 1_000,
  publishWaitMs: 1_500,
  publisherAckWaitMs: 15_000,
  ...NO_RATE_LIMIT,
};

/** What the outage tests record of each API answer. */
export interface Answer {
  status: number;
  code: string | undefined;
  retryAfter: string | null;
  ms: number;
  postId: string | undefined;
  content: string;
  /** Whether the request asked to publish at once (a 202 may also be a draft recorded but not readable yet). */
  publishNow: boolean;
}

/**
 * Clients creating posts without pause, `concurrency` at a time, until stopped: with
 * `publishing`, every second request publishes at once (202 or 201), the others are drafts
 * (201). Returns the answers.
 */
export function createPostsWithoutPause(stack: TestStack, key: string, accounts: string[], options: { concurrency?: number; publishing?: boolean } = {}) {
  const { concurrency = 3, publishing = true } = options;
  const answers: Answer[] = [];
  let running = true;
  let sequence = 0;
  const client = async () => {
    while (running) {
      const n = sequence++;
      const content = `outage traffic ${n}`;
      const publishNow = publishing && n % 2 === 1;
      const started = Date.now();
      const response = await fetch(`${stack.baseUrl}/api/v1/posts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content, accounts, publishNow }),
      });
      const body = (await response.json()) as { post?: { id: string }; error?: { code: string } };
      answers.push({ status: response.status, code: body.error?.code, retryAfter: response.headers.get('retry-after'), ms: Date.now() - started, postId: body.post?.id, content, publishNow });
      // A client told to retry later waits a little (not the full Retry-After: the test must see the outage end).
      if (response.status === 503) await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const clients = Array.from({ length: concurrency }, client);
  return {
    answers,
    async stop(): Promise<Answer[]> {
      running = false;
      await Promise.all(clients);
      return answers;
    },
  };
}

/** One readiness answer, timed. */
export interface ReadinessProbe {
  app: AppName;
  status: number;
  message: string | undefined;
  ms: number;
}

/**
 * Asks every running app for its readiness every `everyMs` until stopped, timing each
 * answer: during an outage each must answer promptly and say what is down.
 */
export function probeReadiness(stack: TestStack, apps: AppName[], everyMs = 500) {
  const probes: ReadinessProbe[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      await Promise.all(
        apps.map(async (app) => {
          const started = Date.now();
          const { status, body } = await stack.readiness(app);
          probes.push({ app, status, message: body.error?.message, ms: Date.now() - started });
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    probes,
    async stop() {
      running = false;
      await loop;
      return probes;
    },
  };
}

/**
 * What clients may see during an outage: 201 / 202, or 503 service_unavailable with
 * Retry-After; never a 500, never a hang past the command timeout.
 */
export function expectOnlyAcceptedOrRetryLater(answers: Answer[]): void {
  expect(answers.filter((answer) => ![201, 202, 503].includes(answer.status))).toEqual([]);
  for (const refused of answers.filter((answer) => answer.status === 503)) {
    expect(refused).toMatchObject({ code: 'service_unavailable', retryAfter: String(SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS) });
  }
  expect(answers.filter((answer) => answer.ms >= OUTAGE_COMMAND_TIMEOUT_MS + 500)).toEqual([]);
}

/** Readiness asked during an outage: every app answered, promptly, 503 naming what is down. */
export function expectReadinessNamedTheOutage(probes: ReadinessProbe[], apps: AppName[], down: 'postgres' | 'nats'): void {
  expect(new Set(probes.map((probe) => probe.app))).toEqual(new Set(apps));
  for (const probe of probes) {
    expect(probe).toMatchObject({ status: 503, message: expect.stringContaining(down) });
    expect(probe.ms).toBeLessThan(READINESS_CHECK_TIMEOUT_MS + 500);
  }
}

/** Waits until every app reports ready again (the recovery needs no operator). */
export async function untilAllReady(stack: TestStack, apps: AppName[], timeoutMs = 20_000): Promise<void> {
  await until(async () => (await Promise.all(apps.map((app) => stack.readiness(app)))).every((probe) => probe.status === 200), timeoutMs);
}

const FINAL: PostStatus[] = ['draft', 'published', 'partial', 'failed'];

/**
 * Every post the API accepted (201, or 202 publishing or recorded) is in the post list, and reaches
 * a final status: a draft stays one, a publication ends. Reads the whole list by cursor.
 */
export async function expectEveryAcceptedPostListedAndFinal(stack: TestStack, key: string, answers: Answer[], timeoutMs = 30_000): Promise<Map<string, PostStatus>> {
  const accepted = answers.filter((answer) => answer.status === 201 || answer.status === 202).map((answer) => answer.postId!);
  /** The whole list by cursor; null when a page could not be read (then the previous reading stands). */
  const readList = async (): Promise<Map<string, PostStatus> | null> => {
    const reading = new Map<string, PostStatus>();
    let cursor: string | undefined;
    do {
      const page = await stack.request('GET', `/api/v1/posts?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key });
      if (page.status !== 200) return null;
      for (const post of page.body.posts as { id: string; status: PostStatus }[]) reading.set(post.id, post.status);
      cursor = page.body.nextCursor ?? undefined;
    } while (cursor);
    return reading;
  };
  const complete = (reading: Map<string, PostStatus>) => accepted.every((id) => FINAL.includes(reading.get(id)!));
  let listed = new Map<string, PostStatus>();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    listed = (await readList()) ?? listed;
    if (complete(listed) || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const missing = accepted.filter((id) => !listed.has(id));
  const unfinished = accepted.filter((id) => listed.has(id) && !FINAL.includes(listed.get(id)!));
  expect({ missing, unfinished }).toEqual({ missing: [], unfinished: [] });
  return listed;
}

/**
 * The event id of every message on the JetStream event stream, in stream order (read one by
 * one by sequence: the tests' streams hold a few hundred at most). The relay publishes each
 * event with Nats-Msg-Id = its event id, so a repeat inside the duplicate window is dropped by
 * the server; an event relayed twice would show here as the same event id on two messages.
 */
export async function relayedEventIds(nc: NatsConnection, stream: string): Promise<string[]> {
  const jsm = await nc.jetstreamManager();
  const { state } = await jsm.streams.info(stream);
  const ids: string[] = [];
  for (let seq = state.first_seq; state.messages > 0 && seq <= state.last_seq; seq++) {
    const message = await jsm.streams.getMessage(stream, { seq });
    ids.push((message.json() as { eventId: string }).eventId);
  }
  return ids;
}

/** The ids of every event in the store. */
export async function storedEventIds(stack: TestStack): Promise<string[]> {
  const { rows } = await stack.db.pool.query<{ event_id: string }>('SELECT event_id FROM events ORDER BY global_position');
  return rows.map((row) => row.event_id);
}

/**
 * What each publication's results say agrees with the platforms (the sandbox's items, found by
 * the post's text): an account reported published has exactly one live item, an account
 * reported failed has none. So nothing went out twice, and nothing live is reported failed.
 * Returns every account's result, to count how many the outage cost.
 */
export async function expectResultsMatchPlatforms(stack: TestStack, key: string, postIds: string[]) {
  const results: { postId: string; platform: Platform; success: boolean; code: string | undefined; live: number }[] = [];
  for (const postId of postIds) {
    const { body } = await stack.request('GET', `/api/v1/posts/${postId}`, { key });
    const post = body.post as { content: string; results: { platform: Platform; success: boolean; error?: { code: string } }[] };
    for (const result of post.results) {
      const live = stack.sandbox!.control.published({ platform: result.platform, kind: 'post' }).filter((item) => item.text === post.content).length;
      results.push({ postId, platform: result.platform, success: result.success, code: result.error?.code, live });
    }
  }
  expect(results.filter((result) => result.live !== (result.success ? 1 : 0))).toEqual([]);
  return results;
}

/**
 * After an outage: every post the API accepted is listed and final (publications ended, drafts
 * kept), each publishing account's result agrees with its platform (nothing published twice,
 * nothing live reported failed), some went out, and the one failure an outage may leave is
 * outcome_unknown: an account whose "started" was recorded but whose answer was lost with the
 * connection for longer than the start's tries with the same delivery id (README: Reliability: outages).
 */
export async function expectPublicationsEndedAsOnPlatforms(stack: TestStack, key: string, answers: Answer[]): Promise<void> {
  const listed = await expectEveryAcceptedPostListedAndFinal(stack, key, answers);
  const publications = answers.filter((answer) => (answer.status === 201 || answer.status === 202) && answer.publishNow);
  const results = await expectResultsMatchPlatforms(
    stack,
    key,
    publications.map((answer) => answer.postId!),
  );
  expect(results.filter((result) => result.success).length).toBeGreaterThan(0);
  expect(results.filter((result) => !result.success && result.code !== 'outcome_unknown')).toEqual([]);
}

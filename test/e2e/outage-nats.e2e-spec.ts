import { ALL_APPS } from '../../tools/local/in-process-stack';
import { SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../apps/gateway/src/errors/api-exception.filter';
import { READINESS_CHECK_TIMEOUT_MS } from '../../libs/health/src/health.controller';
import { PrivateInfra, startPrivateInfra } from '../support/private-infra';
import { OUTAGE_COMMAND_TIMEOUT_MS, OUTAGE_STACK_OVERRIDES, createPostsWithoutPause, expectEveryAcceptedPostListedAndFinal, expectResultsMatchPlatforms, probeReadiness, untilAllReady } from '../support/outage-traffic';
import { TestStack } from '../support/test-stack';

/**
 * NATS killed (kill -9) under traffic and started again on the same port and storage, against
 * a nats-server of this test's own (issue 16: 9 s; 4 × 503; the publisher's /health/ready hung).
 * Down for OUTAGE_MS = 5 s: longer than the command timeout, so requests sent at the start of
 * the outage time out inside it, and several reconnect attempts fail before the server is back.
 */
const OUTAGE_MS = 5_000;

describe('NATS killed and restarted', () => {
  let infra: PrivateInfra & { destroy(): Promise<void> };
  let stack: TestStack;

  beforeAll(async () => {
    infra = await startPrivateInfra();
    stack = await TestStack.start({ infra, sandbox: true, overrides: OUTAGE_STACK_OVERRIDES });
  });
  afterAll(async () => {
    await stack?.stop();
    await infra?.destroy();
  });

  it('answers 503 service_unavailable with Retry-After meanwhile, readiness answers promptly and says so, and it recovers by itself', async () => {
    const { workspaceId, key } = await stack.workspace();
    const accounts = [(await stack.connect(workspaceId, 'mastodon', '@nats_outage_m')).id, (await stack.connect(workspaceId, 'bluesky', '@nats_outage_b')).id];

    const traffic = createPostsWithoutPause(stack, key, accounts);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await infra.nats.kill();
    // Each client notices the lost connection on its own (a read error, at most a ping later).
    await new Promise((resolve) => setTimeout(resolve, 300));
    const readiness = probeReadiness(stack, ALL_APPS);
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    const duringOutage = await readiness.stop();
    const refusedDuringOutage = traffic.answers.filter((answer) => answer.status === 503).length;
    await infra.nats.start();

    await untilAllReady(stack, ALL_APPS);
    const acceptedBefore = traffic.answers.filter((answer) => answer.status < 300).length;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const answers = await traffic.stop();

    expect(answers.filter((answer) => ![201, 202, 503].includes(answer.status))).toEqual([]);
    for (const refused of answers.filter((answer) => answer.status === 503)) {
      expect(refused).toMatchObject({ code: 'service_unavailable', retryAfter: String(SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS) });
    }
    expect(answers.filter((answer) => answer.ms >= OUTAGE_COMMAND_TIMEOUT_MS + 500)).toEqual([]);
    expect(refusedDuringOutage).toBeGreaterThan(0);
    expect(answers.filter((answer) => answer.status < 300).length).toBeGreaterThan(acceptedBefore);

    // Every app's readiness (the publisher's included, which hung in issue 16) answered in time and named NATS.
    expect(new Set(duringOutage.map((probe) => probe.app))).toEqual(new Set(ALL_APPS));
    for (const probe of duringOutage) {
      expect(probe).toMatchObject({ status: 503, message: expect.stringContaining('nats') });
      expect(probe.ms).toBeLessThan(READINESS_CHECK_TIMEOUT_MS + 500);
    }

    const listed = await expectEveryAcceptedPostListedAndFinal(stack, key, answers);
    // Each account's result agrees with its platform: nothing published twice, nothing live reported failed.
    const publications = answers.filter((answer) => answer.status === 202 || (answer.status === 201 && listed.get(answer.postId!) !== 'draft'));
    const results = await expectResultsMatchPlatforms(
      stack,
      key,
      publications.map((answer) => answer.postId!),
    );
    expect(results.filter((result) => result.success).length).toBeGreaterThan(0);
    // The one failure an outage may leave: outcome_unknown, for an account whose "started" was
    // recorded but whose answer was lost with the connection for longer than the start's tries
    // with the same delivery id (see the README: Not done yet, Reconciliation).
    expect(results.filter((result) => !result.success && result.code !== 'outcome_unknown')).toEqual([]);
  }, 60_000);
});

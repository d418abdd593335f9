import { ALL_APPS } from '../../tools/local/in-process-stack';
import { usePrivateInfraStack } from '../support/private-infra-stack';
import { OUTAGE_STACK_OVERRIDES, createPostsWithoutPause, expectOnlyAcceptedOrRetryLater, expectPublicationsEndedAsOnPlatforms, expectReadinessNamedTheOutage, probeReadiness, untilAllReady } from '../support/outage-traffic';

/**
 * NATS killed (kill -9) under traffic and started again on the same port and storage, against
 * a nats-server of this test's own (issue 16: 9 s; 4 × 503; the publisher's /health/ready hung).
 * Down for OUTAGE_MS = 5 s: longer than the command timeout, so requests sent at the start of
 * the outage time out inside it, and several reconnect attempts fail before the server is back.
 */
const OUTAGE_MS = 5_000;

describe('NATS killed and restarted', () => {
  const env = usePrivateInfraStack({ sandbox: true, overrides: OUTAGE_STACK_OVERRIDES });

  it('answers 503 service_unavailable with Retry-After meanwhile, readiness answers promptly and says so, and it recovers by itself', async () => {
    const { workspaceId, key } = await env.stack.workspace();
    const accounts = [(await env.stack.connect(workspaceId, 'mastodon', '@nats_outage_m')).id, (await env.stack.connect(workspaceId, 'bluesky', '@nats_outage_b')).id];

    const traffic = createPostsWithoutPause(env.stack, key, accounts);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await env.infra.nats.kill();
    // Each client notices the lost connection on its own (a read error, at most a ping later).
    await new Promise((resolve) => setTimeout(resolve, 300));
    const readiness = probeReadiness(env.stack, ALL_APPS);
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    const duringOutage = await readiness.stop();
    const refusedDuringOutage = traffic.answers.filter((answer) => answer.status === 503).length;
    await env.infra.nats.start();

    await untilAllReady(env.stack, ALL_APPS);
    const acceptedBefore = traffic.answers.filter((answer) => answer.status < 300).length;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const answers = await traffic.stop();

    // Meanwhile: 503 service_unavailable with Retry-After, never a 500, never a hang past the command timeout.
    expectOnlyAcceptedOrRetryLater(answers);
    expect(refusedDuringOutage).toBeGreaterThan(0);
    expect(answers.filter((answer) => answer.status < 300).length).toBeGreaterThan(acceptedBefore);

    // Every app's readiness (the publisher's included, which hung in issue 16) answered in time and named NATS.
    expectReadinessNamedTheOutage(duringOutage, ALL_APPS, 'nats');

    // Every post the API accepted is listed and final; every publication's results agree with the platforms.
    await expectPublicationsEndedAsOnPlatforms(env.stack, key, answers);
  }, 60_000);
});

import { ALL_APPS } from '../../tools/local/in-process-stack';
import { usePrivateInfraStack } from '../support/private-infra-stack';
import { OUTAGE_STACK_OVERRIDES, createPostsWithoutPause, expectOnlyAcceptedOrRetryLater, expectPublicationsEndedAsOnPlatforms, expectReadinessNamedTheOutage, probeReadiness, untilAllReady } from '../support/outage-traffic';

/**
 * PostgreSQL stopped under traffic (issue 16: 21 s, 308 × 500 without Retry-After), against a
 * PostgreSQL of this test's own. The outage lasts OUTAGE_MS = 8 s here, not 20: long enough
 * for every app to meet it on every path (key lookups, command handlers, the projector's and
 * relay's leadership connections, the publisher's recording), while keeping the suite short;
 * nothing in the recovery depends on the length (pools reconnect per query, the feed
 * processors retry every second).
 */
const OUTAGE_MS = 8_000;

describe('PostgreSQL stopped during creates and publishes', () => {
  const env = usePrivateInfraStack({ sandbox: true, overrides: OUTAGE_STACK_OVERRIDES });

  it('answers 503 service_unavailable with Retry-After meanwhile, reports it in readiness, and recovers by itself', async () => {
    const { workspaceId, key } = await env.stack.workspace();
    // Platforms whose posts can be looked up, so a publication cut by the outage is reconciled, not given up.
    const accounts = [(await env.stack.connect(workspaceId, 'mastodon', '@db_outage_m')).id, (await env.stack.connect(workspaceId, 'bluesky', '@db_outage_b')).id];

    const traffic = createPostsWithoutPause(env.stack, key, accounts);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await env.infra.postgres.stop('fast');
    const outageStarted = Date.now();
    // Readiness is asked only once the server is down: every answer in this window must report it.
    const readiness = probeReadiness(env.stack, ALL_APPS);
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    const duringOutage = await readiness.stop();
    const answeredDuringOutage = traffic.answers.filter((answer) => answer.status === 503).length;
    await env.infra.postgres.start();
    const outageMs = Date.now() - outageStarted;

    await untilAllReady(env.stack, ALL_APPS);
    // Clients carry on after the restart until a few posts have gone through again.
    const acceptedBefore = traffic.answers.filter((answer) => answer.status < 300).length;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const answers = await traffic.stop();

    // Meanwhile: 503 service_unavailable with Retry-After, never a 500, never a hang past the command timeout.
    expectOnlyAcceptedOrRetryLater(answers);
    expect(answeredDuringOutage).toBeGreaterThan(0);
    // And after it: new posts accepted again.
    expect(answers.filter((answer) => answer.status < 300).length).toBeGreaterThan(acceptedBefore);

    // Readiness answered promptly during the outage, from every app, and said PostgreSQL is down.
    expect(outageMs).toBeGreaterThanOrEqual(OUTAGE_MS);
    expectReadinessNamedTheOutage(duringOutage, ALL_APPS, 'postgres');

    // Every post the API accepted is listed and final; every publication's results agree with the platforms.
    await expectPublicationsEndedAsOnPlatforms(env.stack, key, answers);
  }, 60_000);
});

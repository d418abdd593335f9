import { AppConfig } from '@app/config';
import { PrivateInfra, startPrivateInfra } from './private-infra';
import { TestStack } from './test-stack';

/** A stack on a PostgreSQL and a nats-server of the test file's own, which the test may stop, kill and start again. */
export interface PrivateInfraStack {
  readonly stack: TestStack;
  readonly infra: PrivateInfra;
}

/**
 * Starts both servers and the stack on them before the file's tests and stops and removes all
 * three after; the fields are filled in by beforeAll (a later beforeAll of the file sees them).
 */
export function usePrivateInfraStack(options: { sandbox?: boolean; overrides?: Partial<AppConfig> } = {}): PrivateInfraStack {
  const env = {} as { stack: TestStack; infra: Awaited<ReturnType<typeof startPrivateInfra>> };
  beforeAll(async () => {
    env.infra = await startPrivateInfra();
    env.stack = await TestStack.start({ ...options, infra: env.infra });
  });
  afterAll(async () => {
    await env.stack?.stop();
    await env.infra?.destroy();
  });
  return env;
}

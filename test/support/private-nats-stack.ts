import { AppConfig } from '@app/config';
import { PrivateNats } from './private-infra';
import { TestStack } from './test-stack';

/** A stack with the sandbox on a nats-server of the test file's own, which the test may kill and start again. */
export interface PrivateNatsStack {
  readonly stack: TestStack;
  readonly nats: PrivateNats;
}

/**
 * Starts the nats-server and the stack on it before the file's tests (`overrides` on top of
 * the server's url) and stops and removes both after; the fields are filled in by beforeAll.
 */
export function usePrivateNatsStack(overrides: Partial<AppConfig>): PrivateNatsStack {
  const env = {} as { stack: TestStack; nats: PrivateNats };
  beforeAll(async () => {
    env.nats = await PrivateNats.start();
    env.stack = await TestStack.start({ sandbox: true, overrides: { natsUrl: env.nats.url, ...overrides } });
  });
  afterAll(async () => {
    await env.stack?.stop();
    await env.nats?.destroy();
  });
  return env;
}

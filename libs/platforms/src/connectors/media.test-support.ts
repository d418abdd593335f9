import type { Platform } from '@app/contracts';
import { mediaRefs } from '@app/media';
import { RunningPlatformSandbox, startPlatformSandbox } from '../../../../apps/platform-sandbox/src/sandbox';
import { provisionConnectorAccount } from '../../../../apps/platform-sandbox/src/sandbox-accounts';
import type { ConnectorAccount, PublishRequest } from '../connector';
import { sandboxEndpoints } from '../endpoints';
import type { RetryPolicy } from '../http/retry-policy';
import { ConnectorRegistry } from '../registry';

/**
 * One platform sandbox (with its HTTPS media host) for a media spec file, and connectors that
 * fetch from that media host only (the allow-list names it; any other private address is refused).
 */
export interface MediaTestEnv {
  sandbox: RunningPlatformSandbox;
  /** Waits really pass, a hundred times shorter than asked, on a clock that counts them whole. */
  connectors: ConnectorRegistry;
  /** Waits pass at once on that clock: a bounded wait reaches its bound after a few quick polls. */
  impatient: ConnectorRegistry;
  /** Every wait the connectors asked for, in ms, since the last test began. */
  sleeps: number[];
}

/** Starts the sandbox before the file's tests and closes it after; the env is filled in beforeAll. */
export function mediaSandbox(): MediaTestEnv {
  const env = { sleeps: [] as number[] } as MediaTestEnv;
  beforeAll(async () => {
    env.sandbox = await startPlatformSandbox({ port: 0 });
    env.connectors = registry(env, 100);
    env.impatient = registry(env, Number.POSITIVE_INFINITY);
  });
  afterAll(async () => {
    await env.sandbox.close();
  });
  beforeEach(() => {
    env.sleeps.length = 0;
  });
  return env;
}

function registry(env: MediaTestEnv, shortenedBy: number): ConnectorRegistry {
  let clock = 0;
  const retry: Partial<RetryPolicy> = {
    baseDelayMs: 1,
    maxDelayMs: 4,
    requestTimeoutMs: 10_000,
    now: () => clock,
    sleep: async (ms) => {
      env.sleeps.push(ms);
      clock += ms;
      if (Number.isFinite(shortenedBy)) await new Promise((resolve) => setTimeout(resolve, ms / shortenedBy));
    },
  };
  return new ConnectorRegistry({ endpoints: sandboxEndpoints(env.sandbox.url), retry, media: { allowedHosts: [new URL(env.sandbox.mediaUrl).host] } });
}

let accountSequence = 0;

/** A fresh account signed in on the sandbox: its key isolates its requests and items there. */
export function mediaAccount(env: MediaTestEnv, platform: Platform, attributes?: Record<string, string>): ConnectorAccount {
  const { accountId, identity, credentials } = provisionConnectorAccount(env.sandbox, { platform, handle: '@brand', key: `media-${platform}-${++accountSequence}`, attributes });
  return { accountId, platform, identity, credentials };
}

/** A url of the sandbox's media host: `GET /media/<file>?bytes=&width=&height=&seconds=` (see media-host.ts). */
export function mediaUrl(env: MediaTestEnv, file: string, params: Record<string, string | number> = {}): string {
  const query = new URLSearchParams(Object.entries(params).map(([name, value]): [string, string] => [name, String(value)]));
  return `${env.sandbox.mediaUrl}/media/${file}${query.size > 0 ? `?${query}` : ''}`;
}

export function mediaPost(content: string, urls: string[], altTexts: Array<string | null> = []): PublishRequest {
  return { content, media: mediaRefs(urls, altTexts), idempotencyKey: `post-${++accountSequence}` };
}

/** The requests an account made on its platform, by operation ('publish', 'upload', 'upload_session', 'lookup'...). */
export function requestsOf(env: MediaTestEnv, account: ConnectorAccount, operation?: string): number {
  return env.sandbox.control.requestCount({ platform: account.platform, account: account.accountId, operation });
}

/** Requests that reached the platform without a token (upload urls carry their own credentials), by operation. */
export function anonymousRequests(env: MediaTestEnv, platform: Platform, operation: string): number {
  return env.sandbox.control.requestCount({ platform, account: 'anonymous', operation });
}

export function postsOf(env: MediaTestEnv, account: ConnectorAccount) {
  return env.sandbox.control.published({ platform: account.platform, account: account.accountId, kind: 'post' });
}

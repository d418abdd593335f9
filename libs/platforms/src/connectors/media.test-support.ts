import type { Platform } from '@app/contracts';
import { mediaRefs } from '@app/media';
import { RunningPlatformSandbox, startPlatformSandbox, provisionConnectorAccount, SandboxAccountInput } from '@app/platform-sandbox';
import type { ConnectorAccount, PublishRequest } from '../connector';
import { sandboxEndpoints } from '../endpoints';
import type { RetryPolicy } from '../http/retry-policy';
import { ConnectorRegistry } from '../registry';

/**
 * The one setup of the connector specs against the sandbox (every *.media.int-spec.ts,
 * find-published, comment-authors, comment-moderation and bluesky.threadgate): one platform sandbox with its HTTPS media host, and connectors that fetch from that media host
 * only (the allow-list names 127.0.0.1:<port>; any other private address is refused).
 * Their waits run on a virtual clock that starts at the real time: each pause is recorded in
 * `sleeps` and moves the clock on by what was asked.
 */
export interface MediaTestEnv {
  sandbox: RunningPlatformSandbox;
  /**
   * Each pause really lasts 20 ms at most: the sandbox's processing (~150 ms for a short clip)
   * passes within a few polls, and a five-minute bound within a second or so.
   */
  connectors: ConnectorRegistry;
  /** No pause really lasts: a bounded wait reaches its bound after a few quick polls, whatever the sandbox does meanwhile. */
  impatient: ConnectorRegistry;
  /** Every pause the connectors asked for, in ms of the virtual clock, since the current test began. */
  sleeps: number[];
}

/** Starts the sandbox before the file's tests and closes it after; the env is filled in by beforeAll. */
export function mediaSandbox(): MediaTestEnv {
  const env = { sleeps: [] as number[] } as MediaTestEnv;
  let clock = Date.now();
  const registry = (longestRealPauseMs: number): ConnectorRegistry => {
    const retry: Partial<RetryPolicy> = {
      baseDelayMs: 1,
      maxDelayMs: 4,
      requestTimeoutMs: 10_000,
      now: () => clock,
      sleep: async (ms) => {
        env.sleeps.push(ms);
        clock += ms;
        if (longestRealPauseMs > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(ms, longestRealPauseMs)));
      },
    };
    return new ConnectorRegistry({ endpoints: sandboxEndpoints(env.sandbox.url), retry, media: { allowedHosts: [new URL(env.sandbox.mediaUrl).host] } });
  };
  beforeAll(async () => {
    env.sandbox = await startPlatformSandbox();
    env.connectors = registry(20);
    env.impatient = registry(0);
  });
  afterAll(() => env.sandbox.close());
  beforeEach(() => {
    env.sleeps.length = 0;
  });
  return env;
}

let sequence = 0;

/**
 * A fresh account signed in on the sandbox (its key isolates its requests and items there), of
 * the kind that posts on its platform, named @brand, with every scope, unless `options` says otherwise.
 */
export function mediaAccount(
  env: MediaTestEnv,
  platform: Platform,
  options: Partial<Pick<SandboxAccountInput, 'handle' | 'displayName' | 'kind' | 'platformAccountId' | 'attributes' | 'scopes'>> = {},
): ConnectorAccount {
  const { accountId, identity, credentials } = provisionConnectorAccount(env.sandbox, { platform, handle: '@brand', key: `media-${platform}-${++sequence}`, ...options });
  return { accountId, platform, identity, credentials };
}

/** A url of the sandbox's media host: `GET /media/<file>?bytes=&width=&height=&seconds=&status=` (see media-host.ts). */
export function mediaUrl(env: MediaTestEnv, file: string, params: Record<string, string | number> = {}): string {
  const query = new URLSearchParams(Object.entries(params).map(([name, value]): [string, string] => [name, String(value)]));
  return `${env.sandbox.mediaUrl}/media/${file}${query.size > 0 ? `?${query}` : ''}`;
}

export function mediaPost(content: string, urls: string[] = [], altTexts: Array<string | null> = []): PublishRequest {
  return { content, media: mediaRefs(urls, altTexts), idempotencyKey: `media-post-${++sequence}` };
}

/** The requests an account made on its platform, of one operation ('publish', 'upload', 'upload_status', 'lookup'...) or all. */
export function requestsOf(env: MediaTestEnv, account: ConnectorAccount, operation?: string): number {
  return env.sandbox.control.requestCount({ platform: account.platform, account: account.accountId, operation });
}

/** Requests that reached the platform without a token (pre-signed upload urls carry their own credentials), of one operation. */
export function anonymousRequests(env: MediaTestEnv, platform: Platform, operation: string): number {
  return env.sandbox.control.requestCount({ platform, account: 'anonymous', operation });
}

/** The posts the account's platform holds for it, newest first. */
export function postsOf(env: MediaTestEnv, account: ConnectorAccount) {
  return env.sandbox.control.published({ platform: account.platform, account: account.accountId, kind: 'post' });
}

/** Publishes `request` and proves the platform's rules refused it with `code`, not retryable, before any call to the platform. */
export async function expectRefusedBeforeAnyCall(env: MediaTestEnv, account: ConnectorAccount, request: PublishRequest, code: string): Promise<void> {
  const outcome = await env.connectors.get(account.platform).publish(account, request);
  expect(outcome).toMatchObject({ status: 'failed', error: { code, retryable: false } });
  expect(requestsOf(env, account)).toBe(0);
}

/**
 * Publishes media from the media host under `localhost` (a loopback address the allow-list,
 * which names 127.0.0.1:<port>, does not) and proves it refused with media_address_refused,
 * without connecting to the media host or calling the platform.
 */
export async function expectPrivateMediaRefused(env: MediaTestEnv, account: ConnectorAccount, file = 'private.jpg'): Promise<void> {
  const connections = env.sandbox.media.connections();
  const outcome = await env.connectors.get(account.platform).publish(account, mediaPost('Private', [`https://localhost:${env.sandbox.media.port}/media/${file}`]));
  expect(outcome).toMatchObject({ status: 'failed', error: { code: 'media_address_refused' } });
  expect(env.sandbox.media.connections()).toBe(connections);
  expect(env.sandbox.media.requests(file)).toBe(0);
  expect(requestsOf(env, account)).toBe(0);
}

/** A request body as a platform's documentation shows it. */
export type PlatformCallBody = { json: unknown } | { form: Record<string, string> } | { multipart: FormData } | { raw: Uint8Array; contentType: string };

/**
 * A call straight to the account's platform on the sandbox, with its token, as the platform's
 * documentation shows it: what the sandbox answers, its JSON body parsed (null when empty; the
 * text when not JSON), read freely by the test's expectations.
 */
export async function platformCall(
  env: MediaTestEnv,
  who: ConnectorAccount,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: PlatformCallBody,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const sent: Record<string, string> = { authorization: `Bearer ${who.credentials.accessToken}`, ...headers };
  let payload: string | Uint8Array | FormData | undefined;
  if (body && 'json' in body) {
    sent['content-type'] = 'application/json';
    payload = JSON.stringify(body.json);
  } else if (body && 'form' in body) {
    sent['content-type'] = 'application/x-www-form-urlencoded';
    payload = new URLSearchParams(body.form).toString();
  } else if (body && 'raw' in body) {
    sent['content-type'] = body.contentType;
    payload = body.raw;
  } else if (body) {
    payload = body.multipart;
  }
  const response = await fetch(`${env.sandbox.url}/${who.platform}${path}`, { method, headers: sent, body: payload });
  const text = await response.text();
  let parsed: unknown = null;
  if (text !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { status: response.status, body: parsed };
}

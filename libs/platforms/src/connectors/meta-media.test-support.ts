import { mediaRefs } from '@app/media';
import type { Platform } from '@app/contracts';
import { RunningPlatformSandbox, startPlatformSandbox } from '../../../../apps/platform-sandbox/src/sandbox';
import { provisionConnectorAccount } from '../../../../apps/platform-sandbox/src/sandbox-accounts';
import type { ConnectorAccount, PublishRequest } from '../connector';
import { sandboxEndpoints } from '../endpoints';
import { ConnectorRegistry } from '../registry';

/**
 * What the Facebook, Instagram and Threads media specs share: a sandbox with its media host
 * allowed, connectors whose waits run on a virtual clock (each pause is recorded, advances
 * the clock and sleeps 20 ms at most, so the sandbox's ~150 ms processing passes in a few
 * polls and a five-minute bound in a second), fresh accounts, media urls and requests.
 */
export interface MetaMediaWorld {
  readonly sandbox: RunningPlatformSandbox;
  readonly connectors: ConnectorRegistry;
  /** The pauses of the current test, in ms of the virtual clock. */
  readonly waits: number[];
  account(): ConnectorAccount;
  /** A url of the sandbox media host (see media-host.ts for the query parameters). */
  media(name: string, query?: string): string;
  post(content: string, urls: string[], altTexts?: Array<string | null>): PublishRequest;
  /** Requests the account made on the platform, of one operation or all. */
  requests(who: ConnectorAccount, operation?: string): number;
  postsOf(who: ConnectorAccount): ReturnType<RunningPlatformSandbox['control']['published']>;
  /** A call straight to the sandbox's platform, as the documentation shows it (form fields or multipart). */
  call(who: ConnectorAccount, method: 'GET' | 'POST', path: string, body?: Record<string, string> | FormData): Promise<{ status: number; body: Record<string, unknown> | null }>;
}

export function metaMediaWorld(platform: Platform, kind: 'page' | 'instagram' | 'user'): MetaMediaWorld {
  const waits: number[] = [];
  let clock = Date.now();
  let sequence = 0;
  const world = {
    waits,
    sandbox: undefined as unknown as RunningPlatformSandbox,
    connectors: undefined as unknown as ConnectorRegistry,
    account(): ConnectorAccount {
      const { accountId, identity, credentials } = provisionConnectorAccount(world.sandbox, { platform, handle: '@brand', key: `${platform}-media-${++sequence}`, kind });
      return { accountId, platform, identity, credentials };
    },
    media: (name: string, query = '') => `${world.sandbox.mediaUrl}/media/${name}${query}`,
    post: (content: string, urls: string[], altTexts: Array<string | null> = []): PublishRequest => ({
      content,
      media: mediaRefs(urls, altTexts),
      idempotencyKey: `${platform}-media-${++sequence}`,
    }),
    requests: (who: ConnectorAccount, operation?: string) => world.sandbox.control.requestCount({ platform, account: who.accountId, operation }),
    postsOf: (who: ConnectorAccount) => world.sandbox.control.published({ platform, account: who.accountId, kind: 'post' }),
    async call(who: ConnectorAccount, method: 'GET' | 'POST', path: string, body?: Record<string, string> | FormData) {
      const headers: Record<string, string> = { authorization: `Bearer ${who.credentials.accessToken}` };
      if (body !== undefined && !(body instanceof FormData)) headers['content-type'] = 'application/x-www-form-urlencoded';
      const response = await fetch(`${world.sandbox.url}/${platform}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : body instanceof FormData ? body : new URLSearchParams(body).toString(),
      });
      const text = await response.text();
      return { status: response.status, body: text === '' ? null : JSON.parse(text) };
    },
  };

  beforeAll(async () => {
    world.sandbox = await startPlatformSandbox();
    world.connectors = new ConnectorRegistry({
      endpoints: sandboxEndpoints(world.sandbox.url),
      retry: {
        baseDelayMs: 1,
        maxDelayMs: 4,
        requestTimeoutMs: 10_000,
        now: () => clock,
        sleep: async (ms) => {
          waits.push(ms);
          clock += ms;
          await new Promise((resolve) => setTimeout(resolve, Math.min(ms, 20)));
        },
      },
      media: { allowedHosts: [new URL(world.sandbox.mediaUrl).host] },
    });
  });
  afterAll(() => world.sandbox.close());
  beforeEach(() => {
    waits.length = 0;
  });
  return world;
}

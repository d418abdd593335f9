import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { DomainError, MAX_WEBHOOK_URL_CHARS } from '@app/contracts';
import { guardedAgent, isMetadataHostname, MediaHostAllowList, refusedRange } from '@app/media';

/** What one attempt got: the endpoint's status (null when none came), its Retry-After header, and why it failed, if it did. */
export interface AttemptResult {
  responseStatus: number | null;
  /** As the endpoint sent it (seconds or an HTTP date); see throttledUntil. */
  retryAfter: string | null;
  error: string | null;
}

export interface WebhookTargetOptions {
  /** WEBHOOK_ALLOWED_HOSTS: hosts, host:port pairs and CIDR ranges that may be http and loopback or private. */
  allowedHosts: readonly string[];
  /** The whole attempt: connect, send, the answer's status line and headers. */
  timeoutMs: number;
  /** Bytes of the answer read before the connection is dropped (the body is never needed). */
  maxResponseBytes: number;
  /** Resolves a hostname when an endpoint is registered (the delivery itself is checked on the dialled address). */
  resolver?: (hostname: string) => Promise<Array<{ address: string; family: number }>>;
}

/**
 * Where webhooks may go and how they are sent. The address policy is the media
 * fetcher's (libs/media: address-policy and its guarded undici agent, checking
 * the address actually dialled, so DNS rebinding is caught at delivery): there is
 * one SSRF guard in the service. Https only, except the allow-listed hosts.
 */
export class WebhookTarget {
  private readonly allowList: MediaHostAllowList;
  private readonly agent: Agent;
  private readonly resolver: NonNullable<WebhookTargetOptions['resolver']>;

  constructor(private readonly options: WebhookTargetOptions) {
    this.allowList = new MediaHostAllowList(options.allowedHosts, 'WEBHOOK_ALLOWED_HOSTS');
    this.agent = guardedAgent(this.allowList);
    this.resolver = options.resolver ?? ((hostname) => lookup(hostname, { all: true, verbatim: true }));
  }

  /** Refuses a url no delivery may go to (invalid_webhook_url, webhook_url_refused); returns it normalised. */
  async check(raw: string): Promise<string> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new DomainError('invalid_webhook_url', 'url is not an absolute url');
    }
    if (raw.length > MAX_WEBHOOK_URL_CHARS) throw new DomainError('invalid_webhook_url', `url is over ${MAX_WEBHOOK_URL_CHARS} characters`);
    if (url.username || url.password) throw new DomainError('invalid_webhook_url', 'url must not carry credentials');
    const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    const allowed = this.allowList.allowsHost(hostname, port);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && (allowed || this.allowList.allowsAddress(hostname)))) {
      throw new DomainError('invalid_webhook_url', 'url must be https (http only for hosts in WEBHOOK_ALLOWED_HOSTS)');
    }
    if (allowed) return url.toString();
    if (isMetadataHostname(hostname)) throw new DomainError('webhook_url_refused', `${hostname} is a cloud metadata service`);
    const addresses = isIP(hostname) ? [hostname] : await this.resolve(hostname);
    const refused = addresses.find((address) => !this.allowList.allowsAddress(address) && refusedRange(address));
    if (refused) throw new DomainError('webhook_url_refused', `${hostname} is (or resolves to) ${refused}, a ${refusedRange(refused)} address`);
    return url.toString();
  }

  /** A host that does not resolve now may later: only its addresses, when there are some, are judged here. */
  private async resolve(hostname: string): Promise<string[]> {
    try {
      return (await this.resolver(hostname)).map((answer) => answer.address);
    } catch {
      return [];
    }
  }

  /**
   * One POST, no redirect followed (a 3xx is a failure, as Standard Webhooks says), the
   * answer's body read up to maxResponseBytes and dropped. Never throws.
   */
  async send(url: string, headers: Record<string, string>, body: string): Promise<AttemptResult> {
    try {
      const response = await request(url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: { 'content-type': 'application/json', 'user-agent': 'social-publishing-webhooks/1', ...headers },
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
      await response.body.dump({ limit: this.options.maxResponseBytes }).catch(() => undefined);
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      const retryAfter = [response.headers['retry-after']].flat()[0] ?? null;
      return { responseStatus: response.statusCode, retryAfter, error: ok ? null : `answered ${response.statusCode}` };
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause;
      // AbortSignal.timeout aborts with a DOMException named TimeoutError; undici's own timeouts name themselves too.
      const timedOut = [error, cause].some((e) => ['TimeoutError', 'HeadersTimeoutError', 'BodyTimeoutError'].includes((e as { name?: string } | undefined)?.name ?? ''));
      const reason = timedOut ? `no answer within ${this.options.timeoutMs} ms` : describe(cause ?? error);
      return { responseStatus: null, retryAfter: null, error: reason };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`.slice(0, 500);
  return String(error).slice(0, 500);
}

import { AddressRefusedError } from '@app/media';
import { Dispatcher, request as undiciRequest } from 'undici';
import type { PlatformError } from '../connector';
import { CallDeadline, CallTimedOut } from './call-deadline';
import { encodeBody } from './request-body';
import { toHeaders } from './response-headers';
import { backoffDelayMs, rateLimitDelayMs, RetryPolicy } from './retry-policy';

/**
 * The one home of HTTP, retries and error mapping for every connector.
 *
 * Retry rules:
 * - an error answer the platform marks transient (5xx, 429, or a transient code in its
 *   error body, per the connector's ErrorMapper) is retried with backoff, honouring the
 *   rate-limit reset header, up to the policy's attempts; an answer is a refusal, so this
 *   holds for the irreversible call too;
 * - a connection that failed before the request left (refused, DNS) is retried: nothing
 *   can have reached the platform;
 * - a timeout or dropped connection after the request may have left is retried for safe
 *   calls (reads, container creation, upload sessions) but NOT for the irreversible call:
 *   there it raises PlatformOutcomeUnknown, unless the platform deduplicates the call
 *   (`idempotent`, e.g. Mastodon's Idempotency-Key), in which case a resend returns the
 *   first result instead of a second post and is safe.
 */
export interface PlatformRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  /** Sent as application/json. */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded (Meta's documented parameter form). */
  form?: Record<string, string>;
  /** Sent as is (media bytes: one chunk in memory, or a file-backed Blob streamed from disk). */
  raw?: { body: Uint8Array | Blob; contentType: string };
  /** Sent as multipart/form-data (file parts as file-backed Blobs are streamed, not loaded). */
  multipart?: FormData;
  /** This call creates the public item: a lost answer makes the outcome unknown. */
  irreversible?: boolean;
  /** The platform deduplicates this call, so resending after a lost answer is safe. */
  idempotent?: boolean;
  /** 'bytes' keeps a 2xx body as raw bytes (media downloads); default parses JSON or text. */
  expect?: 'json' | 'bytes';
  /**
   * Non-2xx statuses that are this call's answers, not errors: resolved like a 2xx, never
   * retried or mapped (YouTube's 308 Resume Incomplete to an upload chunk).
   */
  answers?: readonly number[];
}

export interface PlatformResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON when the body is JSON, else the text, else null; a Uint8Array for `expect: 'bytes'`. */
  body: unknown;
}

/** Turns a platform's non-2xx answer into {code, message, retryable}. One per platform (its error dialect). */
export type ErrorMapper = (response: PlatformResponse) => PlatformError;

/**
 * For platforms that tell a throttled client how long to wait in their own way (Meta's usage
 * headers): the wait a `rate_limited` answer asks for, or null when it names none. Such an
 * answer is then retried only after the wait the platform asked for (within the policy's
 * maxRateLimitWaitMs); one that names none fails at once, as retryable, because retrying a
 * throttled app only prolongs its block.
 */
export type RateLimitWait = (response: PlatformResponse, nowMs: number) => number | null;

/** A definite failure: nothing was created by the failing call. */
export class PlatformCallFailed extends Error {
  constructor(readonly error: PlatformError) {
    super(`${error.code}: ${error.message}`);
    this.name = 'PlatformCallFailed';
  }
}

/** The irreversible call may or may not have taken effect. */
export class PlatformOutcomeUnknown extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlatformOutcomeUnknown';
  }
}

/**
 * Retryable by HTTP status alone; a mapper starts from this and refines with the body.
 * 501 Not Implemented is the one 5xx that is not transient (RFC 9110 §15.6.2: the server
 * does not support the method), so asking again can only get the same answer.
 */
export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status !== 501);
}

/** A readable fallback code from the HTTP status, for bodies that carry none. */
export function codeForStatus(status: number): string {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status === 501) return 'not_implemented';
  if (status >= 500) return 'platform_unavailable';
  return 'platform_rejected';
}

export class PlatformHttp {
  constructor(
    private readonly mapError: ErrorMapper,
    readonly policy: RetryPolicy,
    private readonly rateLimitWait?: RateLimitWait,
  ) {}

  /** Sends with the retry rules above; resolves with a 2xx answer (or one the request names in `answers`) or throws PlatformCallFailed / PlatformOutcomeUnknown. */
  async send(request: PlatformRequest): Promise<PlatformResponse> {
    let lastError: PlatformError = { code: 'platform_unavailable', message: 'no attempt made', retryable: true };
    for (let attempt = 1; attempt <= this.policy.maxAttempts; attempt++) {
      const isLast = attempt === this.policy.maxAttempts;
      let response: PlatformResponse;
      try {
        response = await this.attempt(request);
      } catch (cause) {
        const refused = addressRefusal(cause);
        if (refused !== null) throw new PlatformCallFailed({ code: 'platform_address_refused', message: refused, retryable: false });
        const reached = mayHaveReachedPlatform(cause);
        const message = describeNetworkError(cause);
        if (reached && request.irreversible && (!request.idempotent || isLast)) {
          throw new PlatformOutcomeUnknown(`no answer from the platform after the request was sent (${message})`);
        }
        lastError = { code: reached ? 'timeout' : 'network_error', message, retryable: true };
        if (isLast) break;
        await this.policy.sleep(backoffDelayMs(this.policy, attempt));
        continue;
      }
      if (isSuccess(response.status) || request.answers?.includes(response.status)) return response;
      lastError = this.mapError(response);
      const asked = lastError.retryable ? this.askedWaitMs(response, lastError) : null;
      // The wait the platform named travels with the failure, so a caller that schedules its own retry honours it.
      if (asked !== null) lastError = { ...lastError, retryAfterMs: asked };
      if (!lastError.retryable || isLast) break;
      const delay = this.retryDelayMs(asked, lastError, attempt);
      if (delay === null || delay > this.policy.maxRateLimitWaitMs) break;
      await this.policy.sleep(delay);
    }
    throw new PlatformCallFailed(lastError);
  }

  /** The wait a transient answer names (its rate-limit headers, or the platform's own RateLimitWait), or null. */
  private askedWaitMs(response: PlatformResponse, error: PlatformError): number | null {
    const now = this.policy.now();
    if (this.rateLimitWait && error.code === 'rate_limited') return this.rateLimitWait(response, now);
    return rateLimitDelayMs(response.headers, now);
  }

  /** How long to wait before retrying a transient answer; null = do not retry it (a throttled platform that named no wait). */
  private retryDelayMs(asked: number | null, error: PlatformError, attempt: number): number | null {
    if (asked !== null) return asked;
    if (this.rateLimitWait && error.code === 'rate_limited') return null;
    return backoffDelayMs(this.policy, attempt);
  }

  private async attempt(request: PlatformRequest): Promise<PlatformResponse> {
    const encoded = encodeBody(request);
    const headers = { accept: 'application/json', 'user-agent': USER_AGENT, ...request.headers, ...encoded.headers };
    const deadline = new CallDeadline(this.policy.requestTimeoutMs);
    try {
      // Without a dispatcher in the policy (tests of one connector), undici's global keep-alive Agent.
      // No redirect is followed: platform APIs answer in place, and a 3xx is an answer to map, not a call to resend.
      const response = await undiciRequest(request.url, { method: request.method, headers, body: encoded.body, signal: deadline, dispatcher: this.policy.dispatcher });
      const body = isSuccess(response.statusCode) && request.expect === 'bytes' ? await response.body.bytes() : parseBody(await response.body.text());
      return platformResponse(response.statusCode, response.headers, body);
    } finally {
      deadline.clear();
    }
  }
}

/** undici's request names no client of its own, and some APIs refuse anonymous ones. */
const USER_AGENT = 'social-publishing/1';

/** Headers are built on first read: most answers are never asked for one (a few connectors read one; error answers their rate-limit headers). */
function platformResponse(status: number, rawHeaders: Dispatcher.ResponseData['headers'], body: unknown): PlatformResponse {
  let headers: Headers | undefined;
  return {
    status,
    body,
    get headers() {
      return (headers ??= toHeaders(rawHeaders));
    },
  };
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The guarded dialer's refusal (platform-dialer.ts), as its message, or null: the host is,
 * or now resolves to, an address no call may reach. Nothing was sent, and asking again
 * would be refused again. undici's request rejects with the connector's error itself.
 */
function addressRefusal(error: unknown): string | null {
  return error instanceof AddressRefusedError ? error.message : null;
}

/** Error codes (undici / Node) that mean the connection never carried our request. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

/** False only when we know the request never left; a timeout or reset may have followed a delivered request. */
export function mayHaveReachedPlatform(error: unknown): boolean {
  const code = errorCode(error);
  return !(code !== undefined && NOT_SENT_CODES.has(code));
}

function describeNetworkError(error: unknown): string {
  if (error instanceof CallTimedOut) return 'request timed out';
  const code = errorCode(error);
  if (code !== undefined) return `${code}: ${(error as { message?: string }).message ?? 'connection failed'}`;
  return error instanceof Error ? error.message : String(error);
}

/** The Node (ECONNREFUSED…) or undici (UND_ERR_…) code undici's request rejects with, if any. */
function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

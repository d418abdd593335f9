import type { components } from './generated/openapi';

/** Every code the API answers an error with (the OpenAPI document's ErrorSchema.code). */
export type ApiErrorCode = components['schemas']['ErrorSchema']['code'];
/** The API's error body: {error: {code, message, details?, candidates?}}. */
export type ApiErrorBody = components['schemas']['ErrorBodySchema'];

/** A code of the SDK's own, for an answer that is not the API's error body (a proxy's HTML page, a cut connection). */
export type SdkErrorCode = 'unexpected_response';

/**
 * An error answer of the API, thrown by every SDK call that did not succeed:
 * `code` is the API's stable code (narrow with `error.is('rate_limited')` or
 * `isSocialApiError(error, 'insufficient_scope')`), `body` the answer as sent.
 */
export class SocialApiError<C extends ApiErrorCode | SdkErrorCode = ApiErrorCode | SdkErrorCode> extends Error {
  override readonly name = 'SocialApiError';

  constructor(
    readonly status: number,
    readonly code: C,
    message: string,
    /** error.details as the API sent it ({} when it sent none). */
    readonly details: Record<string, unknown>,
    /** The whole answer body ({error: {...}}), as the API sent it. */
    readonly body: unknown,
    /** x-request-id of the answer, to quote to support. */
    readonly requestId: string | null,
    /** Retry-After of the answer, in seconds, when it had one. */
    readonly retryAfterSeconds: number | null,
  ) {
    super(message);
  }

  is<K extends ApiErrorCode | SdkErrorCode>(code: K): this is SocialApiError<K> {
    return (this.code as string) === code;
  }

  /** Builds the error from an answer that did not succeed and its parsed body (what openapi-fetch gives as `error`). */
  static fromAnswer(response: Response, body: unknown): SocialApiError {
    const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)?.error;
    const requestId = response.headers.get('x-request-id');
    const retryAfter = retryAfterSecondsOf(response.headers.get('retry-after'));
    if (error && typeof error.code === 'string' && typeof error.message === 'string') {
      const details = error.details && typeof error.details === 'object' ? (error.details as Record<string, unknown>) : {};
      return new SocialApiError(response.status, error.code as ApiErrorCode, error.message, details, body, requestId, retryAfter);
    }
    return new SocialApiError(response.status, 'unexpected_response', `HTTP ${response.status} without the API's error body`, {}, body, requestId, retryAfter);
  }
}

/** Whether `error` is a SocialApiError (of `code`, when given). */
export function isSocialApiError<K extends ApiErrorCode | SdkErrorCode>(error: unknown, code?: K): error is SocialApiError<K> {
  return error instanceof SocialApiError && (code === undefined || error.code === code);
}

/** Retry-After (RFC 9110 §10.2.3): delay-seconds or an HTTP-date; null when absent or unreadable. */
export function retryAfterSecondsOf(value: string | null, now: number = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

import { INSUFFICIENT_PLATFORM_SCOPE, METRIC_NAMES, type ItemMetrics, type MetricName } from '@app/contracts';
import { PlatformCallFailed } from '../http/platform-http';
import { malformedAnswer } from '../outcome';

/**
 * What every connector's metrics methods share: the one vocabulary filled from the platform's
 * fields (null, never 0, where the platform gives no such number) and the platform's own
 * refusal of a token without the analytics scope turned into the one code callers handle.
 */

/**
 * The readings in the one vocabulary: each metric the platform gives, as a number (JSON numbers,
 * or the decimal strings YouTube sends); every other metric null. A field the platform should
 * have sent but did not, or sent as something else, is null too: "not given" is never read as 0.
 */
export function itemMetrics(given: Partial<Record<MetricName, unknown>>): ItemMetrics {
  return Object.fromEntries(METRIC_NAMES.map((name) => [name, countOf(given[name])])) as ItemMetrics;
}

/** A count from a platform's field: a non-negative integer (or its decimal string), else null. */
export function countOf(value: unknown): number | null {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number >= 0 ? number : null;
}

/** The platform's raw object for `raw`: the answer's object, or a malformed answer when it is not one. */
export function rawObject(value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw malformedAnswer(what);
  return value as Record<string, unknown>;
}

/**
 * Runs a metrics call; the platform's refusal of the token for lack of a scope (its error code,
 * as the connector's error mapper names it: `refusedFor`) becomes `insufficient_platform_scope`,
 * not retryable, naming the scopes the reading needs. An account connected before analytics asked
 * for them still publishes (ANALYTICS_ONLY_SCOPES): only its numbers wait for a new sign-in.
 */
export async function readingMetrics<T>(call: () => Promise<T>, refusedFor: readonly string[], scopes: readonly string[]): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof PlatformCallFailed && refusedFor.includes(error.error.code)) {
      throw new PlatformCallFailed({
        code: INSUFFICIENT_PLATFORM_SCOPE,
        message: `the platform refused the metrics call (${error.error.code}: ${error.error.message}); it needs ${scopes.join(', ')}: sign in again to grant it`,
        retryable: false,
      });
    }
    throw error;
  }
}

/** The item the platform no longer (or not yet) answers for: deleted, or not public yet. Not retryable as such. */
export function metricsItemNotFound(platformPostId: string): PlatformCallFailed {
  return new PlatformCallFailed({ code: 'item_not_found', message: `the platform answers no metrics for ${platformPostId} (deleted, or not public)`, retryable: false });
}

import type { MediaFetcher } from '@app/media';
import type { ConnectorAccount } from '../connector';
import type { RetryPolicy } from '../http/retry-policy';

/** What every connector is built from: where its platform lives and how hard to try. */
export interface ConnectorContext {
  /** Base URL without a trailing slash (the real host, or the sandbox's per-platform prefix). */
  baseUrl: string;
  retry: RetryPolicy;
  /** LinkedIn's API release (YYYYMM) for its LinkedIn-Version header; the connector's default when absent. */
  linkedInApiVersion?: string;
  /** The one way a connector reads a post's media: fetched safely, under the platform's limits, streamed. */
  media: MediaFetcher;
}

export function bearer(account: ConnectorAccount): Record<string, string> {
  return { authorization: `Bearer ${account.credentials.accessToken}` };
}

/** Reads a nested value from a JSON answer without trusting its shape. */
export function at(value: unknown, ...keys: Array<string | number>): unknown {
  let current = value;
  for (const key of keys) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

export function stringAt(value: unknown, ...keys: Array<string | number>): string | undefined {
  const found = at(value, ...keys);
  if (typeof found === 'string') return found;
  return typeof found === 'number' ? String(found) : undefined;
}

export function arrayAt(value: unknown, ...keys: Array<string | number>): unknown[] {
  const found = at(value, ...keys);
  return Array.isArray(found) ? found : [];
}

/** Text compared for reconciliation: links stripped (platforms rewrite them) and whitespace collapsed. */
export function comparableText(text: string): string {
  return text.replace(/https?:\/\/\S+/g, '').replace(/\s+/g, ' ').trim();
}

/** snake_case from a platform's own label ("Usage Capped", "usage-capped", "RateLimitExceeded"). */
export function snakeCase(label: string): string {
  return label
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
}

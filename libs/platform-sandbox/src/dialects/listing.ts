import { PlatformRefusal } from '../dialect';
import type { SandboxItem } from '../store';

/**
 * Paging of an account's items as the platforms' list endpoints do it: newest first, a page
 * of `size`, and an opaque cursor for the next (older) page, null after the last. The cursor
 * is the offset, encoded so a client cannot build one by hand (each platform documents its
 * cursor as opaque: X next_token, Graph `after`, XRPC cursor, Pinterest bookmark...).
 */
export function pageOf<T>(items: readonly T[], cursor: string | undefined, size: number, refusal: (message: string) => PlatformRefusal): { page: T[]; next: string | null } {
  const offset = cursor === undefined || cursor === '' ? 0 : Number(Buffer.from(cursor, 'base64url').toString('utf8').replace(/^offset:/, ''));
  if (!Number.isSafeInteger(offset) || offset < 0) throw refusal(`invalid cursor ${cursor}`);
  const end = offset + size;
  return { page: items.slice(offset, end), next: end < items.length ? Buffer.from(`offset:${end}`).toString('base64url') : null };
}

/** A page size parameter within the platform's bounds, its default when absent; a value outside is refused. */
export function pageSize(value: string | undefined, bounds: { min: number; max: number; default: number }, refusal: (message: string) => PlatformRefusal): number {
  if (value === undefined) return bounds.default;
  const size = Number(value);
  if (!Number.isInteger(size) || size < bounds.min || size > bounds.max) throw refusal(`the page size must be an integer from ${bounds.min} to ${bounds.max}`);
  return size;
}

/** Items created at or after `since` (epoch ms), for the platforms whose listing filters by time (X start_time, Graph since). */
export function createdSince(items: readonly SandboxItem[], sinceMs: number | null): SandboxItem[] {
  return sinceMs === null ? [...items] : items.filter((item) => Date.parse(item.createdAt) >= sinceMs);
}

/** A Graph time as its APIs write it: ISO 8601 to the second with a +0000 offset. */
export function graphTime(iso: string): string {
  return iso.replace(/\.\d+Z$/, '+0000');
}

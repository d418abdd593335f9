import { DomainError } from '@app/contracts';

/** The ETag of a post: its version (the number of its events), quoted. */
export function etagOf(version: number): string {
  return `"${version}"`;
}

/** If-Match → the version it names; null when absent or `*`. */
export function parseIfMatch(header: string | undefined): number | null {
  if (header === undefined || header.trim() === '*') return null;
  const match = /^\s*(?:W\/)?"(\d+)"\s*$/.exec(header);
  if (!match) throw new DomainError('invalid_if_match', 'If-Match must be an ETag from GET /api/v1/posts/:id, e.g. "3"');
  return Number(match[1]);
}

import { sniffMediaType } from '@app/media';
import { measureMedia } from '@app/media/measure';

/** A mebibyte and a gibibyte: the units the dialects' size limits are written in. */
export const MIB = 1024 * 1024;
export const GIB = 1024 * MIB;

/** What a platform finds in the first bytes of an upload: its type, pixel size and duration (null where they do not tell). */
export interface UploadedMedia {
  contentType: string;
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
}

/** Reads what an upload's first bytes (its first chunk) declare, as the platform's media processing would. */
export function inspectUpload(head: Buffer): UploadedMedia {
  const type = sniffMediaType(head);
  if (!type) return { contentType: 'application/octet-stream', width: null, height: null, durationSeconds: null };
  const measure = measureMedia(type, head, true) ?? { width: null, height: null, durationSeconds: null };
  return { contentType: type, ...measure };
}

/** A `Content-Range: bytes first-last/total` header (RFC 9110 14.4), or the status query form with a star for the range (first and last null). */
export function contentRange(header: unknown): { first: number | null; last: number | null; total: number } | null {
  if (typeof header !== 'string') return null;
  const match = /^bytes (?:(\d+)-(\d+)|\*)\/(\d+)$/.exec(header.trim());
  if (!match) return null;
  const total = Number(match[3]);
  if (match[1] === undefined) return { first: null, last: null, total };
  const first = Number(match[1]);
  const last = Number(match[2]);
  return last < first || last >= total ? null : { first, last, total };
}

import { sniffMediaType } from '@app/media';
import { measureMedia } from '@app/media/measure';

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

/** The processing time of the sandbox's platforms per second of video. */
const PROCESSING_MS_PER_VIDEO_SECOND = 15;
/** For media whose duration is unknown (images, webm). */
const DEFAULT_PROCESSING_MS = 150;

/**
 * When the sandbox's processing of an upload ends (epoch ms): it grows with the video, as the
 * platforms' does ("processing times vary by content size", TikTok's Get Post Status page):
 * 15 ms per second, so the media host's default 10 s clip takes 150 ms and a test that wants a
 * long wait (a processing timeout) sends a long video (`seconds=600`: 9 s).
 */
export function processingEndsAt(durationSeconds: number | null): number {
  return Date.now() + (durationSeconds === null ? DEFAULT_PROCESSING_MS : Math.round(durationSeconds * PROCESSING_MS_PER_VIDEO_SECOND));
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

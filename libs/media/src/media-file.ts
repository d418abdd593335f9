import type { Readable } from 'node:stream';

/** What the bytes are, as sniffed from them (never from the Content-Type header or the extension). */
export type MediaKind = 'image' | 'gif' | 'video';

/** The content types the pipeline recognises by their magic bytes. */
export const MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'video/mp4', 'video/quicktime', 'video/webm'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/** What one platform accepts for one media item: checked while fetching, before any platform call. */
export interface MediaLimits {
  /** Refused with media_too_large past this many bytes (the fetch stops there). */
  maxBytes: number;
  /** Refused with media_type_not_allowed when the sniffed type is not one of these. */
  types: readonly MediaType[];
}

/**
 * One fetched media item, spooled to a private temporary file while it was fetched, so
 * it is never held whole in memory and every upload retry re-reads it without fetching
 * again. Valid until its batch is disposed.
 */
export interface MediaFile {
  /** The url as the post gave it. */
  readonly url: string;
  readonly contentType: MediaType;
  readonly kind: MediaKind;
  readonly size: number;
  /** Pixel size where the bytes tell it (images; videos whose container does), else null. */
  readonly width: number | null;
  readonly height: number | null;
  /** Seconds, for videos whose container tells it (mp4/mov `mvhd`), else null. */
  readonly durationSeconds: number | null;
  /** A file-backed Blob (fs.openAsBlob): usable as a fetch body or a FormData part without loading it. */
  blob(): Promise<Blob>;
  /** The bytes as a stream, optionally a byte range [start, end). */
  stream(start?: number, end?: number): Readable;
  /** The bytes in consecutive chunks of `chunkSize` (the last may be shorter); one chunk in memory at a time. */
  chunks(chunkSize: number): AsyncIterable<{ index: number; offset: number; bytes: Uint8Array }>;
}

/** One media item of a post: its url and optional alt text, in the post's order. */
export interface MediaRef {
  url: string;
  /** Alt text for screen readers, carried to every platform that takes it; null when none was given. */
  altText: string | null;
}

/** A post's media urls paired with their alt texts (absent or empty = none). */
export function mediaRefs(urls: readonly string[], altTexts: ReadonlyArray<string | null | undefined> = []): MediaRef[] {
  return urls.map((url, index) => ({ url, altText: altTexts[index] || null }));
}

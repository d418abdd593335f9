import { imageSize } from 'image-size';
import type { MediaType } from './media-file';

/** What a file's first bytes tell of its pixel size and duration (null where they do not). */
export interface MediaMeasure {
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
}

const UNKNOWN: MediaMeasure = { width: null, height: null, durationSeconds: null };

/**
 * Measures a file from its head: images through image-size, mp4/mov through the moov box
 * (mvhd duration, the first video track's tkhd size) when moov comes before the media
 * data ("faststart"). Returns undefined while `head` is too short to tell and more bytes
 * may follow (`complete` false); with all the bytes there are, an answer (nulls where
 * the bytes do not tell).
 */
export function measureMedia(type: MediaType, head: Uint8Array, complete: true): MediaMeasure;
export function measureMedia(type: MediaType, head: Uint8Array, complete: boolean): MediaMeasure | undefined;
export function measureMedia(type: MediaType, head: Uint8Array, complete: boolean): MediaMeasure | undefined {
  if (type === 'video/mp4' || type === 'video/quicktime') return measureIsoMedia(head, complete);
  if (type === 'video/webm') return UNKNOWN;
  try {
    const size = imageSize(head);
    // EXIF orientations 5-8 turn the picture a quarter: it is shown (and judged) the other way round.
    const turned = (size.orientation ?? 1) >= 5;
    return { width: turned ? size.height : size.width, height: turned ? size.width : size.height, durationSeconds: null };
  } catch {
    return complete ? UNKNOWN : undefined;
  }
}

interface Box {
  type: string;
  /** Where the box's content starts and ends (end may lie past the bytes at hand). */
  start: number;
  end: number;
}

/** The boxes in [from, to) of an ISO BMFF file (ISO/IEC 14496-12 4.2), as far as their headers are in `bytes`. */
function* boxes(bytes: DataView, from: number, to: number): Generator<Box | 'truncated'> {
  for (let offset = from; offset < to; ) {
    if (offset + 8 > bytes.byteLength) return yield 'truncated';
    let size = bytes.getUint32(offset);
    const type = String.fromCharCode(bytes.getUint8(offset + 4), bytes.getUint8(offset + 5), bytes.getUint8(offset + 6), bytes.getUint8(offset + 7));
    let header = 8;
    if (size === 1) {
      if (offset + 16 > bytes.byteLength) return yield 'truncated';
      size = Number(bytes.getBigUint64(offset + 8));
      header = 16;
    } else if (size === 0) {
      size = to - offset;
    }
    if (size < header) return;
    yield { type, start: offset + header, end: offset + size };
    offset += size;
  }
}

function measureIsoMedia(head: Uint8Array, complete: boolean): MediaMeasure | undefined {
  const bytes = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const unfinished = complete ? UNKNOWN : undefined;
  for (const box of boxes(bytes, 0, Number.MAX_SAFE_INTEGER)) {
    if (box === 'truncated') return unfinished;
    // The media data comes first: the duration sits behind it, out of reach of a streaming read.
    if (box.type === 'mdat') return UNKNOWN;
    if (box.type === 'moov') return measureMovie(bytes, box) ?? unfinished;
  }
  return unfinished;
}

/** Duration and size from a moov box, or undefined when the part holding them is not in `bytes` yet. */
function measureMovie(bytes: DataView, moov: Box): MediaMeasure | undefined {
  let durationSeconds: number | null = null;
  for (const child of boxes(bytes, moov.start, moov.end)) {
    if (child === 'truncated' || child.end > bytes.byteLength) return undefined;
    if (child.type === 'mvhd') durationSeconds = movieDuration(bytes, child);
    if (child.type === 'trak') {
      const size = trackSize(bytes, child);
      if (size) return { ...size, durationSeconds };
    }
  }
  return { width: null, height: null, durationSeconds };
}

/** mvhd (8.2.2): version 0 has 32-bit times, version 1 64-bit; duration / timescale. */
function movieDuration(bytes: DataView, mvhd: Box): number | null {
  const version = bytes.getUint8(mvhd.start);
  const timescale = bytes.getUint32(mvhd.start + (version === 1 ? 20 : 12));
  const duration = version === 1 ? Number(bytes.getBigUint64(mvhd.start + 24)) : bytes.getUint32(mvhd.start + 16);
  return timescale > 0 ? duration / timescale : null;
}

/** tkhd (8.3.2): width and height are 16.16 fixed point at its end; zero for audio tracks. */
function trackSize(bytes: DataView, trak: Box): { width: number; height: number } | null {
  for (const child of boxes(bytes, trak.start, trak.end)) {
    if (child === 'truncated') return null;
    if (child.type !== 'tkhd') continue;
    const width = bytes.getUint32(child.end - 8) / 0x10000;
    const height = bytes.getUint32(child.end - 4) / 0x10000;
    return width > 0 && height > 0 ? { width: Math.round(width), height: Math.round(height) } : null;
  }
  return null;
}

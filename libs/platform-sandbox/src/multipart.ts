import multipart, { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';

/** How much of a file part a handler sees: enough for its type, pixel size and duration (a faststart mp4's moov box). */
export const FILE_HEAD_BYTES = 64 * 1024;

/**
 * One file part of a multipart/form-data request, as a dialect handler sees it in `ctx.body`:
 * counted as it streams in, with only its first bytes held (a 99 MB video is never in memory).
 */
export interface SandboxFilePart {
  filename: string;
  contentType: string;
  /** The first FILE_HEAD_BYTES (or all, when shorter): what the platform sniffs and measures. */
  head: Buffer;
  /** How many bytes the part carried. */
  size: number;
}

/** A file part in a handler's body: its filename, type, head and size; anything else (a text field, absent) is not one. */
export function isSandboxFilePart(value: unknown): value is SandboxFilePart {
  return value !== null && typeof value === 'object' && Buffer.isBuffer((value as SandboxFilePart).head) && typeof (value as SandboxFilePart).size === 'number';
}

/**
 * multipart/form-data (X's media upload, Mastodon's /api/v2/media, Graph API file uploads...)
 * parsed before the synchronous dialect handlers run: `ctx.body` becomes an object whose text
 * fields are strings and whose file parts are SandboxFileParts (a field repeated becomes an
 * array). A file part over `maxFileBytes` is refused with 413.
 */
export async function registerMultipart(app: FastifyInstance, maxFileBytes: number): Promise<void> {
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: maxFileBytes, files: 100 },
    async onFile(part: MultipartFile) {
      const head: Buffer[] = [];
      let held = 0;
      let size = 0;
      for await (const chunk of part.file as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (held < FILE_HEAD_BYTES) {
          const piece = chunk.subarray(0, FILE_HEAD_BYTES - held);
          head.push(piece);
          held += piece.length;
        }
      }
      const file: SandboxFilePart = { filename: part.filename, contentType: part.mimetype, head: Buffer.concat(head), size };
      part.value = file;
    },
  });
}

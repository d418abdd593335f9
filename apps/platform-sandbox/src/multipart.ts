import multipart, { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';

/** One file part of a multipart/form-data request, as a dialect handler sees it in `ctx.body`. */
export interface SandboxFilePart {
  filename: string;
  contentType: string;
  bytes: Buffer;
}

/** A file part in a handler's body: its filename, type and bytes; anything else (a text field, absent) is not one. */
export function isSandboxFilePart(value: unknown): value is SandboxFilePart {
  return value !== null && typeof value === 'object' && Buffer.isBuffer((value as SandboxFilePart).bytes);
}

/**
 * multipart/form-data (X's media upload, Mastodon's /api/v2/media, Graph API file uploads...)
 * parsed before the synchronous dialect handlers run: `ctx.body` becomes
 * an object whose text fields are strings and whose file parts are SandboxFileParts (a field
 * repeated becomes an array).
 */
export async function registerMultipart(app: FastifyInstance, maxFileBytes: number): Promise<void> {
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: maxFileBytes, files: 100 },
    async onFile(part: MultipartFile) {
      const file: SandboxFilePart = { filename: part.filename, contentType: part.mimetype, bytes: await part.toBuffer() };
      part.value = file;
    },
  });
}

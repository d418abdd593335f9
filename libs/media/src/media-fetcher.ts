import { createReadStream, openAsBlob } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { MediaFile, MediaLimits, MediaType } from './media-file';
import { MediaRefused } from './media-refused';
import { kindOf, sniffMediaType } from './sniff';

export interface MediaFetcherOptions {
  /** MEDIA_ALLOWED_HOSTS: hosts, host:port or CIDR ranges exempt from the private-address refusal. */
  allowedHosts?: readonly string[];
  /** The whole fetch of one item, connection to last byte. */
  timeoutMs?: number;
}

/**
 * The media pipeline every connector fetches mediaUrls through: one fetch per item per
 * publication attempt, streamed to a private temporary file under the platform's limits.
 */
export class MediaFetcher {
  constructor(private readonly options: MediaFetcherOptions = {}) {}

  /** Fetches every url (in order) under its limits, runs `use` with the files, and removes them afterwards, whatever happens. */
  async withMedia<T>(urls: readonly string[], limits: MediaLimits | ((index: number) => MediaLimits), use: (files: MediaFile[]) => Promise<T>): Promise<T> {
    const dir = await mkdtemp(join(tmpdir(), 'media-'));
    try {
      const files: MediaFile[] = [];
      for (const [index, url] of urls.entries()) {
        files.push(await this.spool(url, typeof limits === 'function' ? limits(index) : limits, join(dir, String(index))));
      }
      return await use(files);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private async spool(url: string, limits: MediaLimits, path: string): Promise<MediaFile> {
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(this.options.timeoutMs ?? 60_000) });
    } catch (error) {
      throw new MediaRefused('media_unreachable', `${url} could not be fetched (${error instanceof Error ? error.message : String(error)})`, true);
    }
    if (!response.ok || !response.body) {
      throw new MediaRefused('media_unreachable', `${url} answered HTTP ${response.status}`, response.status >= 500 || response.status === 429);
    }
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > limits.maxBytes) throw tooLarge(url, limits);
    const file = await open(path, 'wx', 0o600);
    let size = 0;
    let type: MediaType | null = null;
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        if (size === 0) {
          type = sniffMediaType(chunk);
          if (!type || !limits.types.includes(type)) {
            throw new MediaRefused('media_type_not_allowed', `${url} is ${type ?? 'not a recognised image or video'}; allowed here: ${limits.types.join(', ')}`);
          }
        }
        size += chunk.byteLength;
        if (size > limits.maxBytes) throw tooLarge(url, limits);
        await file.write(chunk);
      }
    } finally {
      await file.close();
      if (size > limits.maxBytes || !type) await response.body.cancel().catch(() => undefined);
    }
    if (!type) throw new MediaRefused('media_type_not_allowed', `${url} is empty`);
    return spooledFile(url, path, type, size);
  }
}

function tooLarge(url: string, limits: MediaLimits): MediaRefused {
  return new MediaRefused('media_too_large', `${url} is larger than ${limits.maxBytes} bytes, the most this platform takes`);
}

function spooledFile(url: string, path: string, contentType: MediaType, size: number): MediaFile {
  return {
    url,
    contentType,
    kind: kindOf(contentType),
    size,
    width: null,
    height: null,
    durationSeconds: null,
    blob: () => openAsBlob(path, { type: contentType }),
    stream: (start?: number, end?: number): Readable => createReadStream(path, { start, end: end === undefined ? undefined : end - 1 }),
    async *chunks(chunkSize: number) {
      let index = 0;
      for (let offset = 0; offset < size; offset += chunkSize, index++) {
        const bytes = new Uint8Array(Math.min(chunkSize, size - offset));
        const handle = await open(path, 'r');
        try {
          await handle.read(bytes, 0, bytes.byteLength, offset);
        } finally {
          await handle.close();
        }
        yield { index, offset, bytes };
      }
    },
  };
}

import { createReadStream, openAsBlob } from 'node:fs';
import { FileHandle, mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Agent, errors as undiciErrors, request } from 'undici';
import { MediaHostAllowList } from './address-policy';
import { AddressRefusedError, guardedAgent, MediaResolver } from './guarded-agent';
import type { MediaFile, MediaLimits, MediaType } from './media-file';
import { MediaMeasure, measureMedia } from './measure';
import { MediaRefused } from './media-refused';
import { kindOf, sniffMediaType } from './sniff';

export interface MediaFetcherOptions {
  /**
   * MEDIA_ALLOWED_HOSTS: hosts, host:port pairs or CIDR ranges exempt from the address
   * refusal. Plain http: is fetched from listed hosts only (a local sandbox or CDN);
   * everything else must be https:.
   */
  allowedHosts?: readonly string[];
  /** The whole fetch of one item, redirects and body included. */
  timeoutMs?: number;
  /** How hostnames are resolved (dns.lookup by default); tests answer with the addresses they need. */
  lookup?: MediaResolver;
  /** Where the temporary files go (a private directory per batch inside it); the OS temp dir by default. */
  spoolDir?: string;
}

/** Redirects followed per item, each hop checked again like the first url. */
export const MAX_MEDIA_REDIRECTS = 5;
const DEFAULT_TIMEOUT_MS = 60_000;
/** The most of a file's head kept in memory to measure it (an mp4's moov can be large; beyond this it stays unmeasured). */
const MEASURE_HEAD_LIMIT = 1024 * 1024;
/** Enough of the head to tell every recognised type (the longest magic, RIFF....WEBP, is 12 bytes). */
const SNIFF_BYTES = 16;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * The media pipeline every connector fetches mediaUrls through: one fetch per item per
 * publication attempt, streamed to a private temporary file under the platform's limits,
 * only from addresses on the public internet (see guarded-agent.ts), the type taken from
 * the bytes, the size capped while streaming, and images' size and mp4/mov duration read
 * from the head of the file.
 */
export class MediaFetcher {
  private readonly allowList: MediaHostAllowList;
  private readonly agent: Agent;
  private readonly timeoutMs: number;
  private readonly spoolDir: string;

  constructor(options: MediaFetcherOptions = {}) {
    this.spoolDir = options.spoolDir ?? tmpdir();
    this.allowList = new MediaHostAllowList(options.allowedHosts);
    this.agent = guardedAgent(this.allowList, options.lookup);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /**
   * Fetches every url (at once) under its limits, runs `use` with the files in the urls'
   * order, and removes them afterwards, whatever happens. The first refused url (in order)
   * is thrown as MediaRefused once every fetch has settled.
   */
  async withMedia<T>(urls: readonly string[], limits: MediaLimits | ((index: number) => MediaLimits), use: (files: MediaFile[]) => Promise<T>): Promise<T> {
    const dir = await mkdtemp(join(this.spoolDir, 'media-'));
    try {
      const fetched = await Promise.allSettled(urls.map((url, index) => this.spool(url, typeof limits === 'function' ? limits(index) : limits, join(dir, String(index)))));
      const refused = fetched.find((result): result is PromiseRejectedResult => result.status === 'rejected');
      if (refused) throw refused.reason;
      return await use(fetched.map((result) => (result as PromiseFulfilledResult<MediaFile>).value));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Closes the pooled connections (a process that stops; tests). */
  close(): Promise<void> {
    return this.agent.close();
  }

  private async spool(url: string, limits: MediaLimits, path: string): Promise<MediaFile> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      const body = await this.open(url, limits, signal);
      try {
        const file = await open(path, 'wx', 0o600);
        try {
          return await spoolBody(url, body, limits, file, path);
        } finally {
          await file.close();
        }
      } finally {
        discard(body);
      }
    } catch (error) {
      throw refusalOf(url, error, this.timeoutMs);
    }
  }

  /** Follows redirects (each hop's scheme and address checked again) to a 200's body, refused early when its declared size is over the cap. */
  private async open(url: string, limits: MediaLimits, signal: AbortSignal): Promise<Readable> {
    let target = parseUrl(url);
    for (let hop = 0; ; hop++) {
      this.checkScheme(url, target);
      const response = await request(target, { dispatcher: this.agent, signal, headers: { accept: limits.types.join(', ') } });
      const location = response.headers.location;
      if (REDIRECT_STATUSES.has(response.statusCode) && typeof location === 'string') {
        await response.body.dump();
        if (hop === MAX_MEDIA_REDIRECTS) throw new MediaRefused('media_unreachable', `${url} redirects more than ${MAX_MEDIA_REDIRECTS} times`);
        target = parseUrl(location, target);
        continue;
      }
      if (response.statusCode !== 200) {
        await response.body.dump();
        const retryable = response.statusCode >= 500 || response.statusCode === 429 || response.statusCode === 408;
        throw new MediaRefused('media_unreachable', `${url} answered HTTP ${response.statusCode}`, retryable);
      }
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > limits.maxBytes) {
        discard(response.body);
        throw tooLarge(url, limits, `Content-Length ${declared}`);
      }
      return response.body;
    }
  }

  private checkScheme(url: string, target: URL): void {
    const port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
    if (target.protocol === 'https:' || (target.protocol === 'http:' && this.allowList.allowsHost(target.hostname, port))) return;
    const why = target.protocol === 'http:' ? `, plain http only from MEDIA_ALLOWED_HOSTS (${target.host} is not there)` : '';
    throw new MediaRefused('media_address_refused', `${url}: only https urls are fetched${why}`);
  }
}

/** Stops a body no longer wanted (read to its end or refused): its abort error has no one to tell. */
function discard(body: Readable): void {
  body.on('error', () => undefined).destroy();
}

function parseUrl(raw: string, base?: URL): URL {
  try {
    return new URL(raw, base);
  } catch {
    throw new MediaRefused('media_unreachable', `${raw} is not a valid url`);
  }
}

/** Streams the body to the file, one chunk in memory at a time: the type from the first bytes, the size checked as it grows, the head kept until it is measured. */
async function spoolBody(url: string, body: Readable, limits: MediaLimits, file: FileHandle, path: string): Promise<MediaFile> {
  let size = 0;
  let type: MediaType | null = null;
  let head = Buffer.alloc(0);
  let measure: MediaMeasure | undefined;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > limits.maxBytes) throw tooLarge(url, limits, 'stopped reading there');
    if (measure === undefined) {
      head = Buffer.concat([head, chunk]);
      type ??= head.length >= SNIFF_BYTES ? allowedType(url, head, limits) : null;
      if (type) measure = measureMedia(type, head, head.length >= MEASURE_HEAD_LIMIT);
      // Measured: the head has served its purpose.
      if (measure) head = Buffer.alloc(0);
    }
    await file.write(chunk);
  }
  if (size === 0) throw new MediaRefused('media_type_not_allowed', `${url} is empty`);
  type ??= allowedType(url, head, limits);
  measure ??= measureMedia(type, head, true);
  return spooledFile(url, path, type, size, measure);
}

function allowedType(url: string, head: Uint8Array, limits: MediaLimits): MediaType {
  const type = sniffMediaType(head);
  if (type && limits.types.includes(type)) return type;
  throw new MediaRefused('media_type_not_allowed', `${url} is ${type ?? 'not a recognised image or video'}; allowed here: ${limits.types.join(', ')}`);
}

function tooLarge(url: string, limits: MediaLimits, detail: string): MediaRefused {
  return new MediaRefused('media_too_large', `${url} is larger than ${limits.maxBytes} bytes, the most this platform takes (${detail})`);
}

/** Any failure of one item as the refusal its account fails with. */
function refusalOf(url: string, error: unknown, timeoutMs: number): MediaRefused {
  if (error instanceof MediaRefused) return error;
  // The cause chain: undici wraps a connector's error; an abort carries the signal's reason (a DOMException, not an Error).
  for (let cause: unknown = error; cause !== null && typeof cause === 'object'; cause = (cause as { cause?: unknown }).cause) {
    if (cause instanceof AddressRefusedError) return new MediaRefused('media_address_refused', `${url}: ${cause.message}`);
    if ((cause as { name?: unknown }).name === 'TimeoutError' || cause instanceof undiciErrors.HeadersTimeoutError || cause instanceof undiciErrors.BodyTimeoutError) {
      return new MediaRefused('media_unreachable', `${url} did not arrive within ${timeoutMs} ms`, true);
    }
  }
  return new MediaRefused('media_unreachable', `${url} could not be fetched (${error instanceof Error ? error.message : String(error)})`, true);
}

function spooledFile(url: string, path: string, contentType: MediaType, size: number, measure: MediaMeasure): MediaFile {
  return {
    url,
    contentType,
    kind: kindOf(contentType),
    size,
    ...measure,
    blob: () => openAsBlob(path, { type: contentType }),
    stream: (start?: number, end?: number): Readable => createReadStream(path, { start, end: end === undefined ? undefined : end - 1 }),
    async *chunks(chunkSize: number) {
      const handle = await open(path, 'r');
      try {
        for (let offset = 0, index = 0; offset < size; offset += chunkSize, index++) {
          const bytes = new Uint8Array(Math.min(chunkSize, size - offset));
          await handle.read(bytes, 0, bytes.byteLength, offset);
          yield { index, offset, bytes };
        }
      } finally {
        await handle.close();
      }
    },
  };
}

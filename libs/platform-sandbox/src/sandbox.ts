import Fastify, { FastifyInstance } from 'fastify';
import { SIGN_IN } from './auth/platforms';
import { registerControlRoutes } from './control-routes';
import { DIALECTS } from './dialects';
import { GIB, MIB } from './dialects/uploaded-media';
import { SandboxMediaHost, startMediaHost } from './media-host';
import { registerMultipart } from './multipart';
import { registerPlatform } from './platform-router';
import { SandboxControl } from './sandbox-control';
import { SandboxStore } from './store';

export interface PlatformSandboxOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** The media host's port; 0 (default) picks a free port. */
  mediaPort?: number;
}

export interface RunningPlatformSandbox {
  /** e.g. http://127.0.0.1:4010; each platform lives under /<platform> (see sandboxEndpoints in @app/platforms). */
  url: string;
  port: number;
  /** The HTTPS media host standing in for the CDN of mediaUrls, e.g. https://127.0.0.1:4011 (see media-host.ts). */
  mediaUrl: string;
  /** Its request and connection counts (what a test proves "never fetched" with). */
  media: SandboxMediaHost;
  /** The same operations as the /_sandbox HTTP API, for tests in the same process. */
  control: SandboxControl;
  close(): Promise<void>;
}

/**
 * One local HTTP server that plays every platform's API under a per-platform prefix
 * (/x, /facebook, ...), remembers what was published and how many requests arrived, and
 * injects faults on demand. State is in memory: it stands in for external platforms.
 */
export async function startPlatformSandbox(options: PlatformSandboxOptions = {}): Promise<RunningPlatformSandbox> {
  const store = new SandboxStore();
  const control = new SandboxControl(store);
  const media = await startMediaHost({ host: options.host ?? '127.0.0.1', port: options.mediaPort ?? 0 });
  const app = await buildApp(store, control, media);
  try {
    await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  } catch (error) {
    await media.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
  const host = options.host && options.host !== '0.0.0.0' ? options.host : '127.0.0.1';
  return {
    url: `http://${host}:${port}`,
    port,
    mediaUrl: media.url,
    media,
    control,
    close: async () => {
      await app.close();
      await media.close();
    },
  };
}

/**
 * A raw body (image/*, video/*, octet-stream) is held whole: up to TikTok's final chunk of 128 MB
 * ("Media Transfer Guide"), the largest single raw request a dialect takes. The same bounds
 * JSON and form bodies.
 */
const MAX_BODY_BYTES = 128 * MIB;
/**
 * A multipart file part is counted, not held (multipart.ts): up to Pinterest's 2 GB video,
 * POSTed whole to its upload_url ("Pinterest product specs"), the largest single-request
 * file part a dialect takes (Mastodon's is 99 MB).
 */
const MAX_FILE_PART_BYTES = 2 * GIB;

async function buildApp(store: SandboxStore, control: SandboxControl, media: SandboxMediaHost): Promise<FastifyInstance> {
  // forceCloseConnections: close() must not wait for keep-alive sockets of the clients under test.
  const app = Fastify({ logger: false, forceCloseConnections: true, bodyLimit: MAX_BODY_BYTES });
  // Meta's APIs take form-encoded parameters; media uploads arrive as raw bytes or multipart forms.
  await registerMultipart(app, MAX_FILE_PART_BYTES);
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  for (const mediaType of ['application/octet-stream', /^video\//, /^image\//]) {
    app.addContentTypeParser(mediaType, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  }
  registerControlRoutes(app, control, media);
  for (const dialect of Object.values(DIALECTS)) registerPlatform(app, { ...dialect, routes: [...dialect.routes, ...SIGN_IN[dialect.platform].routes] }, store);
  return app;
}

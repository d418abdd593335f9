import type { RouteAnswer } from '../dialect';
import { PlatformRefusal } from '../dialect';
import type { SandboxStore } from '../store';

const DEFAULT_GRAPH_CODES: Record<number, number> = { 400: 100, 401: 190, 403: 10, 404: 803, 500: 2, 503: 2 };

/** Graph API error body (Facebook, Instagram, Threads): {"error": {message, type, code, fbtrace_id}}. */
export function graphError(status: number, code: string | undefined, message: string): RouteAnswer {
  const graphCode = code !== undefined && /^\d+$/.test(code) ? Number(code) : (DEFAULT_GRAPH_CODES[status] ?? (status >= 500 ? 2 : 100));
  return {
    status,
    body: {
      error: {
        message,
        type: graphCode === 190 ? 'OAuthException' : 'GraphMethodException',
        code: graphCode,
        ...(status >= 500 ? { is_transient: true } : {}),
        fbtrace_id: `sandbox${Date.now().toString(36)}`,
      },
    },
  };
}

/**
 * Graph throttling: HTTP 400 with code 17 ("User request limit reached"); Meta sends no
 * retry header, so the reset is only told in the message and clients back off.
 */
export function graphRateLimited(): RouteAnswer {
  return graphError(400, '17', 'User request limit reached');
}

/** Numeric Graph-style ids (Instagram and Threads media, containers, comments). */
export function graphId(store: SandboxStore): string {
  return String(17_840_000_000_000_000n + BigInt(store.nextSeq()));
}

/** Reads a container created earlier by this account; refuses unknown, foreign or used ones like Graph does. */
export function takeContainer(store: SandboxStore, account: string, creationId: string) {
  const container = store.pending.get(creationId);
  if (!container || container.account !== account) throw new PlatformRefusal(400, '100', `Invalid parameter: creation_id ${creationId} does not exist`);
  if (container.consumedBy) throw new PlatformRefusal(400, '9007', 'The media has already been published');
  return container;
}

export function stringParam(params: Record<string, unknown>, name: string): string | undefined {
  const value = params[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The media urls a container (and its carousel children) points at. */
export function containerMedia(store: SandboxStore, params: Record<string, unknown>): string[] {
  const own = [stringParam(params, 'image_url'), stringParam(params, 'video_url')].filter((url): url is string => url !== undefined);
  const children = (stringParam(params, 'children') ?? '').split(',').filter((id) => id !== '');
  return [...own, ...children.flatMap((id) => containerMedia(store, store.pending.get(id)?.params ?? {}))];
}

import type { Platform } from '@app/contracts';
import type { DocumentedEndpoint } from '@app/platforms/scopes';
import type { SandboxIdentity } from './auth/authority';
import type { SandboxItem, SandboxStore, SandboxUpload } from './store';

/** What a route handler sees of one request. */
export interface RouteContext {
  platform: Platform;
  /** The key of the identity the access token belongs to ('anonymous' on routes that take none). */
  account: string;
  /** The identity behind the access token; null on routes that take none (sign-in endpoints). */
  identity: SandboxIdentity | null;
  /** The scopes the access token was granted ([] on routes that take none, and for tokens issued without named scopes). */
  scopes: string[];
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  store: SandboxStore;
  /** This platform's base url in the sandbox, e.g. http://127.0.0.1:4010/youtube (for Location headers). */
  baseUrl: string;
  /** An injected partial_upload fault: how many bytes of this upload chunk the platform keeps (see faults.ts). */
  keptBytes?: number;
}

export interface RouteAnswer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface PlatformRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  /** The operation counted and matched by faults: 'publish' marks the irreversible call. */
  operation: string | ((ctx: RouteContext) => string);
  /**
   * 'bearer' (default): the route needs an access token the sandbox issued, unexpired and
   * unrevoked (header or access_token parameter). 'none': sign-in endpoints, which check
   * their own parameters (client credentials, codes, refresh tokens).
   */
  auth?: 'bearer' | 'none';
  /**
   * A route that plays several documented endpoints (Graph's /{id}: a container or a published
   * item) names the one a request is, as its reference writes the path; the others are found
   * by their url (see documentedEndpoint). The scopes of that row are checked before the handler.
   */
  documents?: { paths: readonly string[]; of(ctx: RouteContext): string };
  handle(ctx: RouteContext): RouteAnswer;
}

export interface NewComment {
  account: string;
  parent: SandboxItem;
  text: string;
  author: string;
  /** Uploads a reply carries where replies are posts (X, Bluesky, Mastodon: a thread part with media); absent, none. */
  media?: SandboxUpload[];
  /** What the platform keeps of the request where replies are posts (Mastodon: visibility, spoiler_text, language). */
  extra?: Record<string, string>;
}

/** One platform as the sandbox plays it: its routes and the shapes of its errors. */
export interface PlatformDialect {
  platform: Platform;
  routes: PlatformRoute[];
  /** The platform's error answer; `code` is the platform's own (numeric codes as strings). */
  error(status: number, code: string | undefined, message: string): RouteAnswer;
  /**
   * The platform's answer to a missing, unknown, expired or revoked access token (its own
   * status and code: Graph 190, XRPC ExpiredToken...). Defaults to error(401, ...).
   */
  unauthorized?(reason: 'missing' | 'unknown' | 'expired' | 'revoked'): RouteAnswer;
  /**
   * The platform's refusal of a token that lacks what the endpoint's documentation requires
   * (`missing`: the scopes of the row's first set it lacks), in the platform's own status and
   * body: X's 403 problem, Mastodon's 403 "outside the authorized scopes", Graph's #10 / #200...
   */
  insufficientScope(endpoint: DocumentedEndpoint, missing: string[]): RouteAnswer;
  /** The platform's throttling answer with its reset header. */
  rateLimited(resetAfterSeconds: number): RouteAnswer;
  /** Stores a comment the way the platform would (ids in its format); absent where the API has no comments. */
  createComment?(store: SandboxStore, comment: NewComment): SandboxItem;
}

/** A refusal a handler raises; the pipeline answers it in the platform's error shape. */
export class PlatformRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** A handler's required string field, or a 400 refusal in the platform's shape. */
export function required(value: unknown, name: string, code?: string): string {
  if (typeof value === 'string' && value !== '') return value;
  throw new PlatformRefusal(400, code, `${name} is required`);
}

export function field(body: unknown, name: string): unknown {
  return body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
}

/** The comment being answered, or a 404-like refusal. */
export function existing(store: SandboxStore, platform: Platform, id: string, code?: string): SandboxItem {
  const item = store.find(platform, id);
  if (!item) throw new PlatformRefusal(400, code, `object ${id} does not exist`);
  return item;
}

/** The post at the root of an item's thread. */
export function rootPostId(item: SandboxItem): string {
  return item.kind === 'post' ? item.id : (item.postId ?? item.id);
}

/**
 * Whether the access token holds `scope`: a token holds the scopes its sign-in consented to
 * (a test account provisioned without naming any consented to its platform's documented ones).
 */
export function grantsScope(ctx: RouteContext, scope: string): boolean {
  return ctx.scopes.includes(scope);
}

/** Seconds since the epoch when a reset happens. */
export function resetEpochSeconds(resetAfterSeconds: number): number {
  return Math.ceil(Date.now() / 1000 + resetAfterSeconds);
}

import { randomUUID } from 'node:crypto';
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { SocialApiError } from './api-error';
import type { components, paths } from './generated/openapi';
import { OPERATIONS } from './generated/operations';
import { itemsOf, pagesOf } from './pages';
import { retryingFetch, RetryOptions } from './retrying-fetch';

/** The API's schemas by name (the OpenAPI document's components.schemas). */
export type Schemas = components['schemas'];
/** The query parameters of a GET operation. */
export type QueryOf<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } } ? NonNullable<Q> : never;

export interface SocialClientOptions {
  /** Where the API is, e.g. https://api.example.com (no /api/v1). */
  baseUrl: string;
  /** An API key (`sp_…`); its scopes decide what the calls may do. */
  apiKey: string;
  /** How to send a request (default: the global fetch). */
  fetch?: (request: Request) => Promise<Response>;
  /** Retries of 429 with Retry-After and 503 (see RetryOptions). */
  retry?: RetryOptions;
}

/** Operations that take an Idempotency-Key, as "METHOD /path/{template}" (from the OpenAPI document). */
const TAKES_IDEMPOTENCY_KEY = new Set(Object.values(OPERATIONS).filter((operation) => operation.idempotencyKey).map((operation) => `${operation.method} ${operation.path}`));

/**
 * Gives every create that takes an Idempotency-Key one (a random UUID per
 * call) unless the caller set its own, so a retry of the call creates nothing
 * twice and the retrying fetch may send it again.
 */
const idempotencyKeys: Middleware = {
  onRequest({ request, schemaPath }) {
    if (TAKES_IDEMPOTENCY_KEY.has(`${request.method.toUpperCase()} ${schemaPath}`) && !request.headers.has('idempotency-key')) {
      request.headers.set('idempotency-key', randomUUID());
    }
    return request;
  },
};

/**
 * Whether a create, publish or retry answer is the whole one ({post, accounts, results, note}),
 * not a 202 with only {post: {id}, note}: recorded, not readable yet (GET the post in a moment).
 */
export function isComplete<A extends object>(answer: A): answer is Extract<A, { accounts: unknown }> {
  return 'accounts' in answer;
}

/**
 * The answer of a call made with `client.api`, or the SocialApiError it
 * answered with: `await answerOf(client.api.GET('/api/v1/me'))`.
 */
export async function answerOf<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok || error !== undefined) throw SocialApiError.fromAnswer(response, error ?? null);
  return data as T;
}

/**
 * The API's client. `api` is the generated, fully typed client (openapi-fetch)
 * for every operation; the groups below are the common calls, which answer
 * the API's body or throw SocialApiError.
 */
export class SocialClient {
  readonly api: Client<paths>;

  constructor(options: SocialClientOptions) {
    const send = options.fetch ?? ((request: Request) => fetch(request));
    this.api = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      headers: { authorization: `Bearer ${options.apiKey}` },
      fetch: retryingFetch(send, options.retry),
    });
    this.api.use(idempotencyKeys);
  }

  /**
   * Any operation of the OpenAPI document by its operationId, untyped: for an
   * operation this SDK has no method for (`api` is the typed way to call one).
   * Idempotency-Key and retries apply as to every call.
   */
  operation(operationId: string, input: { path?: Record<string, string>; query?: Record<string, unknown>; body?: unknown; headers?: Record<string, string> } = {}): Promise<unknown> {
    const operation = OPERATIONS[operationId];
    if (!operation) throw new Error(`the OpenAPI document this SDK was generated from has no operation ${operationId}`);
    const request = this.api.request as unknown as (method: string, url: string, init: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
    return answerOf(request(operation.method, operation.path, { params: { path: input.path, query: input.query, header: input.headers }, body: input.body }));
  }

  /** The key's workspace, scopes and rate-limit standing (any scope). */
  me(): Promise<Schemas['MeSchema']> {
    return answerOf(this.api.GET('/api/v1/me'));
  }

  readonly accounts = {
    /** Connected accounts of the workspace (scope read). */
    list: (): Promise<Schemas['AccountListSchema']> => answerOf(this.api.GET('/api/v1/accounts')),
  };

  readonly posts = {
    /**
     * A draft, a scheduled post (scheduledAt) or one published now (publishNow:
     * the answer has one result per account). Sent with an Idempotency-Key (a
     * new one per call unless given), so it is retried safely. A 202 may carry
     * only {post: {id}, note} (recorded, not yet readable): see isComplete.
     */
    create: (body: Schemas['CreatePostDto'], options: { idempotencyKey?: string } = {}) =>
      answerOf(this.api.POST('/api/v1/posts', { body, params: { header: options.idempotencyKey ? { 'Idempotency-Key': options.idempotencyKey } : {} } })),
    /** One page of posts, newest first (scope read). */
    list: (query: QueryOf<'/api/v1/posts'> = {}): Promise<Schemas['PostListSchema']> => answerOf(this.api.GET('/api/v1/posts', { params: { query } })),
    /** Every post matching `query`, page after page. */
    iterate: (query: Omit<QueryOf<'/api/v1/posts'>, 'cursor'> = {}) => itemsOf((cursor) => this.posts.list({ ...query, cursor }), (page) => page.posts),
    /** Every page of posts matching `query`. */
    pages: (query: Omit<QueryOf<'/api/v1/posts'>, 'cursor'> = {}) => pagesOf((cursor) => this.posts.list({ ...query, cursor })),
    get: (id: string): Promise<Schemas['PostDetailEnvelopeSchema']> => answerOf(this.api.GET('/api/v1/posts/{id}', { params: { path: { id } } })),
    /** Publishes a draft or a scheduled post now. */
    publish: (id: string) => answerOf(this.api.POST('/api/v1/posts/{id}/publish', { params: { path: { id } } })),
    /** Publishes again to the accounts of a partial or failed post that failed. */
    retry: (id: string) => answerOf(this.api.POST('/api/v1/posts/{id}/retry', { params: { path: { id } } })),
  };

  readonly comments = {
    /** One page of the comment inbox, filtered by `query` (scope read). */
    list: (query: QueryOf<'/api/v1/comments'> = {}): Promise<Schemas['CommentListSchema']> => answerOf(this.api.GET('/api/v1/comments', { params: { query } })),
    /** Every comment matching `query`, page after page. */
    iterate: (query: Omit<QueryOf<'/api/v1/comments'>, 'cursor'> = {}) => itemsOf((cursor) => this.comments.list({ ...query, cursor }), (page) => page.comments),
    /** Replies to a comment (scope engage; never retried: it is not idempotent). */
    reply: (body: Schemas['ReplyToCommentDto']): Promise<Schemas['ReplyResultSchema']> => answerOf(this.api.POST('/api/v1/comments/reply', { body })),
    hide: (body: Schemas['CommentTargetDto']): Promise<Schemas['ModerateCommentResultSchema']> => answerOf(this.api.POST('/api/v1/comments/hide', { body })),
    unhide: (body: Schemas['CommentTargetDto']): Promise<Schemas['ModerateCommentResultSchema']> => answerOf(this.api.POST('/api/v1/comments/unhide', { body })),
  };

  readonly webhooks = {
    /** Registers an endpoint (scope webhooks); the answer carries its signing secret, once. */
    create: (body: Schemas['CreateWebhookDto']): Promise<Schemas['WebhookEndpointWithSecretSchema']> => answerOf(this.api.POST('/api/v1/webhooks', { body })),
    list: (): Promise<Schemas['WebhookEndpointListSchema']> => answerOf(this.api.GET('/api/v1/webhooks')),
  };
}

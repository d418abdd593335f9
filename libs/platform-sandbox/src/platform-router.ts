import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DOCUMENTED_SCOPES, documentedEndpoint, DocumentedEndpoint, grantsEndpoint, missingScopes } from '@app/platforms/scopes';
import { PlatformDialect, PlatformRefusal, PlatformRoute, RouteAnswer, RouteContext } from './dialect';
import type { SandboxStore } from './store';

/**
 * Registers one platform's routes under its prefix, each through the same pipeline:
 * identify the account from its access token (refused as the platform refuses an unknown,
 * expired or revoked one), check the token holds the scopes the endpoint's documentation
 * requires (libs/platforms/src/scopes: refused in the platform's words when it does not; a
 * route with no row there is a sandbox defect and answers 500), count the request, apply injected faults (latency, a hold the test releases, error body,
 * rate limit, a partial upload), run the handler, and for a `drop` fault close the connection after the
 * handler has made the post, without answering.
 */
export function registerPlatform(app: FastifyInstance, dialect: PlatformDialect, store: SandboxStore): void {
  const prefix = `/${dialect.platform}`;
  for (const route of dialect.routes) {
    app.route({
      method: route.method,
      url: `${prefix}${route.url}`,
      handler: (request, reply) => handle(dialect, route, store, prefix, request, reply),
    });
  }
}

async function handle(
  dialect: PlatformDialect,
  route: PlatformRoute,
  store: SandboxStore,
  prefix: string,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const token = accessToken(request);
  const checked = token ? store.auth.check(token) : null;
  const identity = checked?.ok ? checked.identity : null;
  const ctx: RouteContext = {
    platform: dialect.platform,
    account: identity?.key ?? 'anonymous',
    identity,
    scopes: checked?.ok ? checked.token.scopes : [],
    params: request.params as Record<string, string>,
    query: request.query as Record<string, string>,
    body: request.body,
    headers: request.headers,
    store,
    baseUrl: `${request.protocol}://${request.host}${prefix}`,
  };
  const operation = safeOperation(route, ctx);
  const bearer = (route.auth ?? 'bearer') === 'bearer';
  const documented = bearer ? documentedEndpointOf(dialect, route, ctx) : null;
  store.record({ platform: dialect.platform, operation, account: ctx.account, method: request.method, path: request.url, documented: documented?.path ?? null });
  if (bearer && !identity) {
    const reason = !token ? 'missing' : checked && !checked.ok ? checked.reason : 'unknown';
    return send(reply, dialect.unauthorized?.(reason) ?? dialect.error(401, undefined, `access token ${reason}`));
  }
  if (bearer && !documented) return send(reply, dialect.error(500, undefined, `sandbox defect: ${route.method} ${route.url} has no row in ${dialect.platform}'s documented scope table`));
  if (documented && !grantsEndpoint(documented, ctx.scopes)) return send(reply, dialect.insufficientScope(documented, missingScopes(documented, ctx.scopes)));

  const { latencyMs, holds, fault } = store.takeFaults(dialect.platform, ctx.account, operation);
  if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
  if (holds.length > 0) await Promise.all(holds);
  if (fault?.type === 'error') return send(reply, dialect.error(fault.status, fault.code, fault.message ?? `injected error ${fault.status}`));
  if (fault?.type === 'rate_limit') return send(reply, dialect.rateLimited(fault.resetAfterSeconds ?? 1));
  if (fault?.type === 'partial_upload') ctx.keptBytes = fault.keepBytes;

  let answer: RouteAnswer;
  try {
    answer = route.handle(ctx);
  } catch (error) {
    if (error instanceof PlatformRefusal) return send(reply, dialect.error(error.status, error.code, error.message));
    throw error;
  }
  if (fault?.type === 'drop') {
    reply.hijack();
    request.raw.socket.destroy();
    return;
  }
  send(reply, answer);
}

/** The documentation's row for this request: the one the route names (a route playing several), else the one of its url. */
function documentedEndpointOf(dialect: PlatformDialect, route: PlatformRoute, ctx: RouteContext): DocumentedEndpoint | undefined {
  const path = route.documents ? route.documents.of(ctx) : route.url;
  return documentedEndpoint(DOCUMENTED_SCOPES[dialect.platform], route.method, path);
}

/** An operation resolver reads the body; a malformed body still counts, under the route's url. */
function safeOperation(route: PlatformRoute, ctx: RouteContext): string {
  if (typeof route.operation === 'string') return route.operation;
  try {
    return route.operation(ctx);
  } catch {
    return route.url;
  }
}

function accessToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice('Bearer '.length).trim() || null;
  const fromQuery = (request.query as Record<string, unknown>)?.access_token;
  const fromBody = (request.body as Record<string, unknown> | null)?.access_token;
  const token = typeof fromQuery === 'string' ? fromQuery : fromBody;
  return typeof token === 'string' && token !== '' ? token : null;
}

function send(reply: FastifyReply, answer: RouteAnswer): void {
  reply.code(answer.status ?? 200);
  if (answer.headers) reply.headers(answer.headers);
  if (answer.body === undefined) reply.send();
  else reply.send(answer.body);
}

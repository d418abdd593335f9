import { FastifyInstance } from 'fastify';

/**
 * A fetch that sends the SDK's requests through this gateway's own HTTP
 * stack in process (Fastify's inject: routing, the key guard, rate limits,
 * validation, the exception filter, as a request from outside goes), so a
 * tool call is the REST call and is answered as it would be. No socket, and
 * no address taken from the caller's Host header.
 */
export function injectedFetch(fastify: FastifyInstance, from: { remoteAddress: string; requestId?: string }): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    if (from.requestId && !headers['x-request-id']) headers['x-request-id'] = from.requestId;
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const answer = await fastify.inject({ method: request.method as 'GET', url: `${url.pathname}${url.search}`, headers, payload: body, remoteAddress: from.remoteAddress });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) responseHeaders.append(name, String(one));
    }
    const empty = answer.statusCode === 204 || answer.statusCode === 304 || answer.rawPayload.length === 0;
    return new Response(empty ? null : answer.rawPayload, { status: answer.statusCode, headers: responseHeaders });
  };
}

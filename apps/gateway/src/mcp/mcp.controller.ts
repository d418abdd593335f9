import { Body, Controller, Delete, Get, Post, Req, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiBody, ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { FastifyInstance, FastifyReply } from 'fastify';
import { createMcpServer } from '@app/mcp';
import { SocialClient } from '@app/sdk';
import { AuthenticatedRequest } from '../auth/principal';
import { ApiErrors } from '../openapi/error-responses';
import { OPERATION_ERRORS } from '../openapi/operation-errors';
import { NotCounted } from '../rate-limit/not-counted.decorator';
import { injectedFetch } from './injected-fetch';

/** The headers of the MCP Streamable HTTP transport the server side reads (the rest are this gateway's). */
const TRANSPORT_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'];

/**
 * The MCP server over Streamable HTTP (stateless: one server per request,
 * answers as JSON). Any valid key may open it (the key guard, as for every
 * operation); each tool calls the public API with that same key, so its scopes
 * and rate limits decide as they decide for the REST call. The request itself
 * is not counted: the API calls its tools make are.
 */
@ApiTags('mcp')
@Controller('mcp')
export class McpController {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  @Post()
  @NotCounted()
  @ApiOperation({
    summary: 'The MCP server (Model Context Protocol, Streamable HTTP transport, stateless)',
    description:
      "A JSON-RPC message of MCP (initialize, tools/list, tools/call, ...), answered as JSON. Send Accept: application/json, text/event-stream. Each tool calls this API with the request's own key: an operation its scopes do not allow answers the tool call with isError and the API's error body (insufficient_scope). Any valid key may call this endpoint; it is not counted by the rate limits, the API calls of its tools are.",
  })
  @ApiBody({ description: 'a JSON-RPC request, notification or response (MCP)', schema: { type: 'object', additionalProperties: true } })
  @ApiOkResponse({ description: 'the JSON-RPC answer (202 without a body for a notification)', schema: { type: 'object', additionalProperties: true } })
  @ApiErrors(...OPERATION_ERRORS.mcp)
  async handle(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply, @Body() message: unknown): Promise<void> {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    const requestId = typeof request.headers['x-request-id'] === 'string' ? request.headers['x-request-id'] : undefined;
    const client = new SocialClient({
      baseUrl: 'http://gateway.internal',
      // The key the guard just accepted (Bearer <key>): the tools act as the caller, never as more.
      apiKey: (request.headers.authorization ?? '').replace(/^Bearer\s+/i, '').trim(),
      fetch: injectedFetch(fastify, { remoteAddress: request.ip, requestId }),
      // A tool answers a 429 to the agent (the API's rate_limited, with its retry time) instead of holding this request.
      retry: { maxAttempts: 1 },
    });
    const server = createMcpServer(client);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      const headers = new Headers();
      for (const name of TRANSPORT_HEADERS) {
        const value = request.headers[name];
        if (typeof value === 'string') headers.set(name, value);
      }
      const answer = await transport.handleRequest(new Request('http://gateway.internal/mcp', { method: 'POST', headers }), { parsedBody: message });
      reply.status(answer.status);
      answer.headers.forEach((value, name) => void reply.header(name, value));
      const body = await answer.text();
      await reply.send(body.length ? body : undefined);
    } finally {
      await server.close();
    }
  }

  /** Stateless: no stream to open with GET (the transport's answer, 405). */
  @Get()
  @NotCounted()
  @ApiExcludeEndpoint()
  openStream(@Res() reply: FastifyReply): void {
    notAllowed(reply);
  }

  /** Stateless: no session to end with DELETE (405). */
  @Delete()
  @NotCounted()
  @ApiExcludeEndpoint()
  endSession(@Res() reply: FastifyReply): void {
    notAllowed(reply);
  }
}

/** What MCP's stateless servers answer a GET or DELETE with: 405 and a JSON-RPC error. */
function notAllowed(reply: FastifyReply): void {
  void reply.status(405).header('allow', 'POST').send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless, POST each message.' }, id: null });
}

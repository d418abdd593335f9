import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, CallToolResult, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { isSocialApiError, SocialClient } from '@app/sdk';
import { API_TOOLS, ApiTool } from './tools';

export const MCP_SERVER_INFO = { name: 'social-publishing', version: '0.1.0' };

/** The API's answer as a tool result: the JSON as text (every client reads it) and as structured content. */
function answer(body: unknown, isError = false): CallToolResult {
  const structured = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : { value: body };
  return { content: [{ type: 'text', text: JSON.stringify(body, null, 2) }], structuredContent: structured, ...(isError ? { isError: true } : {}) };
}

/**
 * An MCP server whose tools call the public API through `client` (the SDK,
 * with the caller's key): the API decides, and its answer, or its error
 * ({error: {code, message, ...}}), is the tool's result. A refusal is a tool
 * error (isError), not a protocol error, so the agent reads the API's code.
 */
export function createMcpServer(client: SocialClient, tools: ApiTool[] = API_TOOLS): Server {
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: 'Drafts, schedules and publishes social posts and works the comment inbox through the social publishing API. Start with list_accounts; posts name accounts by id, platform:@handle or platform. Tool errors carry the API\'s error code.',
  });
  const byName = new Map(tools.map((tool) => [tool.name, tool]));

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      annotations: { title: tool.title, readOnlyHint: tool.readOnly, openWorldHint: true },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) return answer({ error: { code: 'unknown_tool', message: `no tool ${request.params.name}; tools/list names them` } }, true);
    try {
      return answer(await tool.call(client, request.params.arguments ?? {}));
    } catch (error) {
      if (isSocialApiError(error)) return answer(error.body && typeof error.body === 'object' ? error.body : { error: { code: error.code, message: error.message } }, true);
      throw error;
    }
  });
  return server;
}

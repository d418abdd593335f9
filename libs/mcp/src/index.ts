/** The MCP server of the social publishing API: tools over the public API through the SDK, nothing else of the service. */
export { createMcpServer, MCP_SERVER_INFO } from './mcp-server';
export { API_TOOLS, ApiTool, ToolArguments } from './tools';
export { ToolInputSchema } from './input-schemas';

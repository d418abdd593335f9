#!/usr/bin/env node
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { SocialClient } from '@app/sdk';
import { createMcpServer } from './mcp-server';

/**
 * The MCP server on stdio, for a desktop client to launch: SOCIAL_API_KEY is
 * the key its tools call the API with, SOCIAL_API_URL where the API is.
 * stdout carries the protocol only; anything else goes to stderr.
 */
async function main(): Promise<void> {
  const apiKey = process.env.SOCIAL_API_KEY;
  const baseUrl = process.env.SOCIAL_API_URL;
  if (!apiKey || !baseUrl) {
    process.stderr.write('social-publishing-mcp: set SOCIAL_API_KEY (an API key) and SOCIAL_API_URL (e.g. https://api.example.com)\n');
    process.exit(2);
  }
  const server = createMcpServer(new SocialClient({ baseUrl, apiKey }));
  await server.connect(new StdioServerTransport());
}

main().catch((error: unknown) => {
  process.stderr.write(`social-publishing-mcp: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});

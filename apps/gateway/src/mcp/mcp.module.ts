import { Module } from '@nestjs/common';
import { McpController } from './mcp.controller';

/** POST /mcp: the MCP server (libs/mcp) on the gateway, its tools calling this API with the caller's key. */
@Module({ controllers: [McpController] })
export class McpModule {}

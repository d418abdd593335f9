import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { AppConfig } from '@app/config';
import { GatewayModule } from '../gateway.module';
import { buildAsyncApiDocument } from './asyncapi/asyncapi-document';
import { buildOpenApiDocument } from './openapi-document';

export const DOCUMENT_FILES = { openapi: 'docs/openapi.json', asyncapi: 'docs/asyncapi.json' } as const;

/** The documents as files: stable JSON, two-space indent, newline at the end. */
export function serialize(document: unknown): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/**
 * npm run openapi: writes docs/openapi.json and docs/asyncapi.json from the code.
 * The gateway is built in preview mode (modules scanned, no provider created),
 * so it needs neither PostgreSQL nor NATS. Run from the repository root.
 */
async function main(): Promise<void> {
  const repoRoot = process.cwd();
  const app = await NestFactory.create(GatewayModule.forRoot(new AppConfig()), new FastifyAdapter(), { preview: true, logger: false });
  mkdirSync(join(repoRoot, 'docs'), { recursive: true });
  writeFileSync(join(repoRoot, DOCUMENT_FILES.openapi), serialize(buildOpenApiDocument(app)));
  writeFileSync(join(repoRoot, DOCUMENT_FILES.asyncapi), serialize(buildAsyncApiDocument(repoRoot)));
  console.log(`wrote ${DOCUMENT_FILES.openapi} and ${DOCUMENT_FILES.asyncapi}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}

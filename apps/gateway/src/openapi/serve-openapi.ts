import { INestApplication } from '@nestjs/common';
import { SwaggerModule } from '@nestjs/swagger';
import { FastifyInstance } from 'fastify';
// The committed document (npm run openapi writes it, test/docs checks it against the code): generating
// it needs the TypeScript sources, which a deployed gateway does not have. The build copies it into dist.
import asyncApiDocument from '../../../../docs/asyncapi.json';
import { buildOpenApiDocument, OPENAPI_ROUTES } from './openapi-document';

/**
 * GET /api/docs (Swagger UI), GET /api/openapi.json and GET /api/asyncapi.json (the events,
 * linked from the docs page). They are plain HTTP routes, outside Nest's guard: public, no
 * key. The OpenAPI document is built on first request.
 */
export function serveOpenApi(app: INestApplication): void {
  SwaggerModule.setup(OPENAPI_ROUTES.ui, app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: OPENAPI_ROUTES.json,
    raw: ['json'],
  });
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  fastify.get(`/${OPENAPI_ROUTES.asyncapi}`, async () => asyncApiDocument);
}

import { INestApplication } from '@nestjs/common';
import { SwaggerModule } from '@nestjs/swagger';
import { buildOpenApiDocument, OPENAPI_ROUTES } from './openapi-document';

/**
 * GET /api/docs (Swagger UI) and GET /api/openapi.json. They are plain HTTP
 * routes, outside Nest's guard: public, no key. Built on first request.
 */
export function serveOpenApi(app: INestApplication): void {
  SwaggerModule.setup(OPENAPI_ROUTES.ui, app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: OPENAPI_ROUTES.json,
    raw: ['json'],
  });
}

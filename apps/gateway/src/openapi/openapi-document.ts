import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ErrorBodySchema } from './schemas/error-body.schema';
import { accessByOperationId, BEARER_SCHEME, withSecurity } from './operation-security';
import { webhookOperations } from './webhook-operations';

export const OPENAPI_ROUTES = { ui: 'api/docs', json: 'api/openapi.json' } as const;

const DESCRIPTION = [
  'Publish one text post (with optional media links) to up to ten connected social accounts at once,',
  'as a draft, scheduled, or right now with a result per account.',
  '',
  'Every error answers `{"error": {"code", "message", "candidates"?, "details"?}}`; each operation lists',
  'its codes under its error responses. Events for internal services: `docs/asyncapi.json`; webhooks for',
  'clients (Standard Webhooks, signed): the `webhooks` section.',
].join('\n');

/** The OpenAPI document of the gateway, from its controllers, DTOs and the error catalogue. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Social publishing and comment engagement API')
    .setDescription(DESCRIPTION)
    .setVersion('v1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API key (`sp_…`). Keys carry scopes: read, write, publish, engage (and accounts, webhooks when asked for).' }, BEARER_SCHEME)
    .build();
  const document = SwaggerModule.createDocument(app, config, { extraModels: [ErrorBodySchema] });
  // Webhooks sent to client endpoints (README, "Webhooks"): the section OpenAPI 3.1 names `webhooks`.
  return { ...withSecurity(document, accessByOperationId(app)), webhooks: webhookOperations() } as OpenAPIObject;
}

import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ErrorBodySchema } from './schemas/error-body.schema';
import { accessByOperationId, BEARER_SCHEME, withSecurity } from './operation-security';
import { webhookOperations } from './webhook-operations';
import { withExamples } from './with-examples';

export const OPENAPI_ROUTES = { ui: 'api/docs', json: 'api/openapi.json', asyncapi: 'api/asyncapi.json' } as const;

const DESCRIPTION = [
  'Publish one text post (with optional media links) to up to ten connected social accounts at once,',
  'as a draft, scheduled, or right now with a result per account.',
  '',
  'Every error answers `{"error": {"code", "message", "candidates"?, "details"?}}`; each operation lists',
  'its codes under its error responses. Events for internal services: the AsyncAPI document at',
  `[/${OPENAPI_ROUTES.asyncapi}](/${OPENAPI_ROUTES.asyncapi}); webhooks for clients (Standard Webhooks, signed): the \`webhooks\` section.`,
  '',
  'Authentication: `Authorization: Bearer <API key>`. A key is an opaque secret (`sp_…`), not a JWT: it',
  'means nothing to the client and is checked against its hash on every request.',
].join('\n');

/** One tag per resource, in the order the docs page lists them; every operation carries one (its controller's). */
export const RESOURCE_TAGS: Array<{ name: string; description: string }> = [
  { name: 'me', description: 'Who the calling key is: its workspace, scopes and rate-limit standing.' },
  { name: 'posts', description: 'Create, schedule, publish, edit and delete posts; each account\'s result.' },
  { name: 'queue', description: "Posting queues: an account's weekly slots in its time zone, and the upcoming slots with the posts queued into them (POST /api/v1/posts with queue: true)." },
  { name: 'calendar', description: 'Days of a range with their posts and the free queue slots, for a calendar view.' },
  { name: 'workspace', description: "The key's workspace and its settings (approvalRequired: posts held for review)." },
  { name: 'accounts', description: 'Connect social accounts (platform sign-in, or credentials obtained elsewhere), list them with their health, disconnect them.' },
  { name: 'comments', description: 'Comments under published posts, classified; reply, hide and unhide.' },
  { name: 'analytics', description: "How posts did: each platform's own numbers per account, over time (JSON and SVG charts)." },
  { name: 'webhooks', description: 'Endpoints of yours that receive signed events (Standard Webhooks), their deliveries, replays.' },
  { name: 'connect page', description: 'The hosted page a connect link opens for your end users (no key: the signed link is the credential); HTML for browsers, the error body for other clients.' },
  { name: 'mcp', description: 'The MCP server (Model Context Protocol) for AI agents: tools that call this API with the caller\'s key.' },
  { name: 'platform webhooks', description: 'What the platforms call (Meta), signed by them: not for API clients.' },
  { name: 'health', description: 'Liveness and readiness probes (no key).' },
  { name: 'metrics', description: 'Prometheus metrics (no key).' },
];

/**
 * Answers the decorators cannot describe: the sign-in callback's redirect (a 302 with no
 * body, sent by hand), and Meta's handshake and delivery, which answer Meta, not a client.
 */
function withUndecoratedAnswers(document: OpenAPIObject): OpenAPIObject {
  const callback = document.paths['/api/v1/accounts/connect/callback']?.get;
  if (callback) {
    callback.responses['302'] = {
      description: "the user's browser is sent back to the redirectUri given to POST /api/v1/accounts/connect, with the outcome in its query (or `error`, e.g. access_denied)",
      headers: { Location: { description: 'the client\'s redirectUri with the outcome in its query', schema: { type: 'string', format: 'uri' } } },
    };
  }
  const meta = document.paths['/webhooks/meta'];
  if (meta?.get) meta.get.responses['200'] = { description: 'hub.challenge, echoed', content: { 'text/plain': { schema: { type: 'string' } } } };
  if (meta?.post) {
    meta.post.requestBody = { required: true, description: "Meta's change notification (object, entry[].changes[] or entry[].messaging[])", content: { 'application/json': { schema: { type: 'object' } } } };
    meta.post.responses['200'] = {
      description: 'accepted: how many comments were new (Meta sends again what is not answered 200)',
      content: { 'application/json': { schema: { type: 'object', required: ['received'], properties: { received: { type: 'integer', minimum: 0 } } } } },
    };
  }
  return withBulkImportMedia(document);
}

/** The bulk import's CSV upload and NDJSON answer, each with its own schema (the decorators give one schema for every media type). */
function withBulkImportMedia(document: OpenAPIObject): OpenAPIObject {
  const bulk = document.paths['/api/v1/posts/bulk']?.post;
  const upload = (bulk?.requestBody as { content?: Record<string, unknown> } | undefined)?.content;
  if (upload?.['multipart/form-data']) {
    upload['multipart/form-data'] = {
      schema: {
        type: 'object',
        required: ['file'],
        properties: {
          atomic: { type: 'string', enum: ['true', 'false'], description: 'before the file part; true: all rows or none' },
          file: { type: 'string', format: 'binary', description: 'text/csv, a header line naming its columns (README, Bulk import)' },
        },
      },
    };
  }
  const answer = (bulk?.responses['200'] as { content?: Record<string, unknown> } | undefined)?.content;
  if (answer?.['application/x-ndjson']) {
    answer['application/x-ndjson'] = { schema: { type: 'string', description: 'one row outcome (as in rows) per line as soon as it is known, then {"summary": {atomic, total, created, refused}}' } };
  }
  return document;
}

/** The OpenAPI document of the gateway, from its controllers, DTOs and the error catalogue. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Social publishing and comment engagement API')
    .setDescription(DESCRIPTION)
    .setVersion('v1')
    .setExternalDoc('The events (AsyncAPI 3.0)', `/${OPENAPI_ROUTES.asyncapi}`)
    .addServer('/', 'the server this document comes from')
    .addServer('http://localhost:3000', 'npm start on this machine (PORT)')
    // Not addBearerAuth: it declares bearerFormat JWT, and a key is an opaque secret.
    .addSecurity(BEARER_SCHEME, {
      type: 'http',
      scheme: 'bearer',
      description: 'An API key (`sp_…`), opaque (not a JWT): `Authorization: Bearer sp_…`. Keys carry scopes: read, write, publish, engage (and accounts, webhooks, approve when asked for).',
    });
  for (const tag of RESOURCE_TAGS) builder.addTag(tag.name, tag.description);
  const document = SwaggerModule.createDocument(app, builder.build(), { extraModels: [ErrorBodySchema] });
  const described = withExamples(withUndecoratedAnswers(withSecurity(document, accessByOperationId(app))));
  // Webhooks sent to client endpoints (README, "Webhooks"): the section OpenAPI 3.1 names `webhooks`.
  return { ...described, webhooks: webhookOperations() } as OpenAPIObject;
}

import multipart from '@fastify/multipart';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@app/config';
import { createHttpApp, HttpAppOptions } from '@app/runtime';
import { GatewayModule } from './gateway.module';
import { BULK_IMPORT_BODY_LIMIT_BYTES } from './http/request-bounds';
import { GATEWAY_SERVER_OPTIONS, serverTimeouts } from './http/server-options';
import { serveOpenApi } from './openapi/serve-openapi';

export async function createGatewayApp(config: AppConfig, options?: HttpAppOptions): Promise<NestFastifyApplication> {
  const app = await createHttpApp(GatewayModule.forRoot(config), { ...options, fastify: { ...GATEWAY_SERVER_OPTIONS, ...serverTimeouts(config) } });
  // Bodies are JSON only: anything else is 415 unsupported_media_type, not a string to validate.
  app.getHttpAdapter().getInstance().removeContentTypeParser('text/plain');
  // multipart/form-data for the one operation marked AcceptsUpload (the bulk import's CSV), read as a stream by its handler;
  // RequestShapeInterceptor refuses it (415) everywhere else.
  // (The cast bridges @nestjs/platform-fastify's own copy of fastify's types; the plugin is the same.)
  await app.register(multipart as unknown as Parameters<NestFastifyApplication['register']>[0], { limits: { files: 1, fields: 1, fileSize: BULK_IMPORT_BODY_LIMIT_BYTES } });
  serveOpenApi(app);
  return app;
}

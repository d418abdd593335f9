import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@app/config';
import { createHttpApp, HttpAppOptions } from '@app/runtime';
import { GatewayModule } from './gateway.module';
import { GATEWAY_SERVER_OPTIONS, serverTimeouts } from './http/server-options';
import { serveOpenApi } from './openapi/serve-openapi';

export async function createGatewayApp(config: AppConfig, options?: HttpAppOptions): Promise<NestFastifyApplication> {
  const app = await createHttpApp(GatewayModule.forRoot(config), { ...options, fastify: { ...GATEWAY_SERVER_OPTIONS, ...serverTimeouts(config) } });
  // Bodies are JSON only: anything else is 415 unsupported_media_type, not a string to validate.
  app.getHttpAdapter().getInstance().removeContentTypeParser('text/plain');
  serveOpenApi(app);
  return app;
}

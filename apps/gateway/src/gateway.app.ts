import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@app/config';
import { createHttpApp, HttpAppOptions } from '@app/runtime';
import { GatewayModule } from './gateway.module';

export function createGatewayApp(config: AppConfig, options?: HttpAppOptions): Promise<NestFastifyApplication> {
  return createHttpApp(GatewayModule.forRoot(config), options);
}

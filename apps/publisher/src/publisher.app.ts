import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@app/config';
import { createHttpApp, HttpAppOptions } from '@app/runtime';
import { PublisherModule } from './publisher.module';

export function createPublisherApp(config: AppConfig, options?: HttpAppOptions): Promise<NestFastifyApplication> {
  return createHttpApp(PublisherModule.forRoot(config), options);
}

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@app/config';
import { createHttpApp, HttpAppOptions } from '@app/runtime';
import { ProjectorModule } from './projector.module';

export function createProjectorApp(config: AppConfig, options?: HttpAppOptions): Promise<NestFastifyApplication> {
  return createHttpApp(ProjectorModule.forRoot(config), options);
}

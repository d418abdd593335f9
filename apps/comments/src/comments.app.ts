import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@app/config';
import { createHttpApp, HttpAppOptions } from '@app/runtime';
import { CommentsModule } from './comments.module';

export function createCommentsApp(config: AppConfig, options?: HttpAppOptions): Promise<NestFastifyApplication> {
  return createHttpApp(CommentsModule.forRoot(config), options);
}

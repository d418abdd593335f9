import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@app/config';
import { createHttpApp, HttpAppOptions } from '@app/runtime';
import { PostsModule } from './posts.module';

export function createPostsApp(config: AppConfig, options?: HttpAppOptions): Promise<NestFastifyApplication> {
  return createHttpApp(PostsModule.forRoot(config), options);
}

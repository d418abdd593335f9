import { DynamicModule, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';

/**
 * Every app is a Nest application on Fastify (measured faster than the Express
 * adapter for this API, see README): the gateway serves the API, the workers
 * serve their health endpoints.
 */
export interface HttpAppOptions {
  logger?: LogLevel[] | false;
}

export async function createHttpApp(module: DynamicModule, options: HttpAppOptions = {}): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(module, new FastifyAdapter({ bodyLimit: 1024 * 1024 }), {
    logger: options.logger ?? ['log', 'warn', 'error'],
    abortOnError: false,
  });
  return app;
}

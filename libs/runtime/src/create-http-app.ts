import { DynamicModule, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DEFAULT_LOG_LEVELS, JsonLogger, LogDestination, observeHttp } from '@app/observability';

/**
 * Every app is a Nest application on Fastify (measured faster than the Express
 * adapter for this API, see README): the gateway serves the API, the workers
 * serve their health endpoints.
 */
export interface HttpAppOptions {
  /** Levels written (default log, warn, error, fatal), or false for none (the tests). */
  logger?: LogLevel[] | false;
  /** Where the JSON log lines go; stdout by default. */
  logDestination?: LogDestination;
}

/**
 * Logs are JSON lines carrying the request id of the work in hand; every
 * request gets an x-request-id and is timed into http_request_duration_seconds.
 */
export async function createHttpApp(module: DynamicModule, options: HttpAppOptions = {}): Promise<NestFastifyApplication> {
  const logger = options.logger === false ? false : new JsonLogger({ levels: options.logger ?? DEFAULT_LOG_LEVELS, destination: options.logDestination });
  const app = await NestFactory.create<NestFastifyApplication>(module, new FastifyAdapter({ bodyLimit: 1024 * 1024 }), {
    logger,
    abortOnError: false,
  });
  observeHttp(app);
  return app;
}

import { DynamicModule, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DEFAULT_LOG_LEVELS, JsonLogger, LogDestination, observeHttp } from '@app/observability';

/** Fastify server options as the adapter's own Fastify declares them (the union minus a ready instance). */
export type FastifyServerOptions = Exclude<NonNullable<ConstructorParameters<typeof FastifyAdapter>[0]>, { server: unknown }>;

/**
 * Every app is a Nest application on Fastify (measured faster than the Express
 * adapter for this API, see README): the gateway serves the API, the workers
 * serve their health endpoints.
 */
export interface HttpAppOptions {
  /** Levels written (default log, warn, error, fatal), or false for none (the tests). */
  logger?: LogLevel[] | false;
  /** Contexts whose log-level lines are written even when `log` is not among the levels (see JsonLogger). */
  alsoLogFrom?: string[];
  /** Where the JSON log lines go; stdout by default. */
  logDestination?: LogDestination;
  /** Fastify server options an app needs on top of the shared ones (limits, client error answers). */
  fastify?: FastifyServerOptions;
}

/**
 * Logs are JSON lines carrying the request id of the work in hand; every
 * request gets an x-request-id and is timed into http_request_duration_seconds.
 */
export async function createHttpApp(module: DynamicModule, options: HttpAppOptions = {}): Promise<NestFastifyApplication> {
  const logger = options.logger === false ? false : new JsonLogger({ levels: options.logger ?? DEFAULT_LOG_LEVELS, alsoLogFrom: options.alsoLogFrom, destination: options.logDestination });
  const app = await NestFactory.create<NestFastifyApplication>(module, new FastifyAdapter({ bodyLimit: 1024 * 1024, ...options.fastify }), {
    logger,
    abortOnError: false,
  });
  observeHttp(app);
  return app;
}

import { Logger } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@app/config';
import { logLevelsFrom } from '@app/observability';
import { HttpAppOptions } from './create-http-app';

/**
 * The body of every app's main.ts: config from the environment, start, listen,
 * report. LOG_LEVEL, when set, chooses the levels written (else the default).
 */
export function runMain(name: string, create: (config: AppConfig, options?: HttpAppOptions) => Promise<NestFastifyApplication>): void {
  const logger = new Logger(name);
  (async () => {
    const config = AppConfig.fromEnv();
    const app = await create(config, { logger: logLevelsFrom(process.env.LOG_LEVEL) });
    // One app per process here: SIGTERM closes it, running every shutdown hook (drain, stop consumers).
    app.enableShutdownHooks();
    await app.listen(config.port, config.host);
    logger.log(`${name} listening on ${await app.getUrl()}`);
  })().catch((error: unknown) => {
    logger.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}

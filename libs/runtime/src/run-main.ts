import { Logger } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@app/config';

/** The body of every app's main.ts: config from the environment, start, listen, report. */
export function runMain(name: string, create: (config: AppConfig) => Promise<NestFastifyApplication>): void {
  const logger = new Logger(name);
  (async () => {
    const config = AppConfig.fromEnv();
    const app = await create(config);
    // One app per process here: SIGTERM closes it, running every shutdown hook (drain, stop consumers).
    app.enableShutdownHooks();
    await app.listen(config.port, config.host);
    logger.log(`${name} listening on ${await app.getUrl()}`);
  })().catch((error: unknown) => {
    logger.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}

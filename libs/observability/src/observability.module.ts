import { Module, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { registerLogSecret } from './json-logger';
import { MetricsController } from './metrics.controller';

/**
 * GET /metrics on the app's HTTP server, and the app's secrets made known to
 * the logger. Request ids, trace context and the JSON logger come with
 * createHttpApp and the messaging lib; this module is what each app imports.
 */
@Module({ controllers: [MetricsController] })
export class ObservabilityModule implements OnModuleInit {
  constructor(private readonly config: AppConfig) {}

  onModuleInit(): void {
    registerLogSecret(this.config.tokenEncryptionKey.toString('base64'));
  }
}

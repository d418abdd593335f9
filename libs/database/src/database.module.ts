import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { Pool } from 'pg';
import { AppConfig } from '@app/config';
import { createPool } from './pool';

export const PG_POOL = Symbol('PG_POOL');

/** One pg Pool per process, closed on shutdown. */
@Global()
@Module({
  providers: [{ provide: PG_POOL, inject: [AppConfig], useFactory: (config: AppConfig) => createPool(config.databaseUrl, config.databasePoolSize) }],
  exports: [PG_POOL],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async onApplicationShutdown(): Promise<void> {
    await this.pool.end();
  }
}

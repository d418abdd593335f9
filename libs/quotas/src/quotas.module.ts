import { Global, Module } from '@nestjs/common';
import { Pool } from 'pg';
import { AppConfig } from '@app/config';
import { PG_POOL } from '@app/database';
import { XPool } from './x-pool';

/** The X pool, sized by configuration, for every app that posts to X (publisher, replies). */
@Global()
@Module({
  providers: [{ provide: XPool, inject: [PG_POOL, AppConfig], useFactory: (pool: Pool, config: AppConfig) => new XPool(pool, config.xPoolMonthlyPosts) }],
  exports: [XPool],
})
export class QuotasModule {}

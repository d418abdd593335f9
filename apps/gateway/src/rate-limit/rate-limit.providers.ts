import { Provider } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { Pool } from 'pg';
import { AppConfig } from '@app/config';
import { PG_POOL } from '@app/database';
import { RateLimiter, RateLimitStore } from '@app/rate-limits';
import { GATEWAY_RATE_LIMITS, gatewayRateLimits } from './rate-limit-policies';
import { RateLimitGuard } from './rate-limit.guard';
import { RateLimitSweeper } from './rate-limit-sweeper';

/**
 * The gateway's rate limiting. Spread into the providers right after the
 * ApiKeyGuard APP_GUARD: global guards run in registration order, and this
 * one needs the principal that guard sets.
 */
export const RATE_LIMIT_PROVIDERS: Provider[] = [
  { provide: RateLimitStore, inject: [PG_POOL], useFactory: (pool: Pool) => new RateLimitStore(pool) },
  { provide: RateLimiter, inject: [RateLimitStore], useFactory: (store: RateLimitStore) => new RateLimiter(store) },
  { provide: GATEWAY_RATE_LIMITS, inject: [AppConfig], useFactory: gatewayRateLimits },
  RateLimitSweeper,
  { provide: APP_GUARD, useClass: RateLimitGuard },
];

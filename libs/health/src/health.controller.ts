import { Controller, Get, Inject, ServiceUnavailableException } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { NatsConnection } from 'nats';
import { Pool } from 'pg';
import { PG_POOL } from '@app/database';
import { NATS_CONNECTION } from '@app/messaging';
import { Public } from './public.decorator';
import { READINESS_CHECKS, ReadinessCheck } from './readiness-check';

/** Liveness (the process answers) and readiness (its Postgres and NATS are reachable). */
@Public()
@Controller('health')
export class HealthController {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly moduleRef: ModuleRef,
  ) {}

  /** The app's own checks, if it provides any (READINESS_CHECKS). */
  private appChecks(): ReadinessCheck[] {
    try {
      return this.moduleRef.get<ReadinessCheck[]>(READINESS_CHECKS, { strict: false });
    } catch {
      return [];
    }
  }

  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(): Promise<{ status: 'ok' }> {
    const failures: string[] = [];
    await this.pool.query('SELECT 1').catch(() => failures.push('postgres'));
    if (this.nc.isClosed()) failures.push('nats');
    else await this.nc.flush().catch(() => failures.push('nats'));
    for (const check of this.appChecks()) {
      const problem = await check.problem().catch((error: unknown) => String(error));
      if (problem) failures.push(`${check.name}: ${problem}`);
    }
    if (failures.length) throw new ServiceUnavailableException({ error: { code: 'service_unavailable', message: `not ready: ${failures.join(', ')}` } });
    return { status: 'ok' };
  }
}

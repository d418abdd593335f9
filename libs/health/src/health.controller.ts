import { Controller, Get, Inject, ServiceUnavailableException } from '@nestjs/common';
import { NatsConnection } from 'nats';
import { Pool } from 'pg';
import { PG_POOL } from '@app/database';
import { NATS_CONNECTION } from '@app/messaging';
import { Public } from './public.decorator';

/** Liveness (the process answers) and readiness (its Postgres and NATS are reachable). */
@Public()
@Controller('health')
export class HealthController {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
  ) {}

  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(): Promise<{ status: 'ok'; checks: Record<string, 'ok'> }> {
    const failures: string[] = [];
    await this.pool.query('SELECT 1').catch(() => failures.push('postgres'));
    if (this.nc.isClosed()) failures.push('nats');
    else await this.nc.flush().catch(() => failures.push('nats'));
    if (failures.length) throw new ServiceUnavailableException({ error: { code: 'service_unavailable', message: `not ready: ${failures.join(', ')}` } });
    return { status: 'ok', checks: { postgres: 'ok', nats: 'ok' } };
  }
}

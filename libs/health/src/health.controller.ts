import { Controller, Get, Inject, ServiceUnavailableException } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { NatsConnection } from 'nats';
import { Pool } from 'pg';
import { PG_POOL } from '@app/database';
import { NATS_CONNECTION } from '@app/messaging';
import { EVENT_STORE, EventStore } from '@app/event-store/event-store.port';
import { Public } from './public.decorator';
import { READINESS_CHECKS, ReadinessCheck } from './readiness-check';

/** Liveness (the process answers) and readiness (its Postgres, NATS and event store answer, and its own checks pass). */
@Public()
@Controller('health')
export class HealthController {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly moduleRef: ModuleRef,
  ) {}

  /** The event store, in the apps that use one (the gateway does not). */
  private eventStore(): EventStore | null {
    try {
      return this.moduleRef.get<EventStore>(EVENT_STORE, { strict: false });
    } catch {
      return null;
    }
  }

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
    await this.eventStore()?.ping().catch(() => failures.push('event store'));
    for (const check of this.appChecks()) {
      const problem = await check.problem().catch((error: unknown) => String(error));
      if (problem) failures.push(`${check.name}: ${problem}`);
    }
    if (failures.length) throw new ServiceUnavailableException({ error: { code: 'service_unavailable', message: `not ready: ${failures.join(', ')}` } });
    return { status: 'ok' };
  }
}

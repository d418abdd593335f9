import { Controller, Get, Inject, ServiceUnavailableException } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { NatsConnection } from 'nats';
import { Pool } from 'pg';
import { PG_POOL } from '@app/database';
import { NATS_CONNECTION } from '@app/messaging';
import { Public } from '@app/observability';
import { READINESS_CHECKS, ReadinessCheck } from './readiness-check';

/** Liveness (the process answers) and readiness (its Postgres and NATS answer, and its own checks pass: READINESS_CHECKS). */
/** The answer of a probe that passes. */
const OK_RESPONSE = { description: 'ok', schema: { type: 'object' as const, required: ['status'], properties: { status: { type: 'string' as const, enum: ['ok'] } } } };

@Public()
@ApiTags('health')
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
  @ApiOperation({ summary: 'Liveness: the process answers' })
  @ApiOkResponse(OK_RESPONSE)
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /**
   * Every check runs at once and each is given READINESS_CHECK_TIMEOUT_MS: during an outage a
   * check can wait for ever (a NATS flush while the client reconnects is only answered once the
   * server is back; a JetStream API request waits its own 5 s timeout), and a probe that hangs
   * tells the orchestrator nothing. A check that does not answer in time counts as failed.
   */
  @Get('ready')
  @ApiOperation({ summary: 'Readiness: PostgreSQL, NATS and the process\'s own checks answer (each within 800 ms)' })
  @ApiOkResponse(OK_RESPONSE)
  @ApiServiceUnavailableResponse({
    description: 'not ready: the failing checks are named in the message (take the instance out of rotation)',
    // The gateway's one error body (its OpenAPI document defines it).
    schema: { $ref: '#/components/schemas/ErrorBodySchema' },
  })
  async ready(): Promise<{ status: 'ok' }> {
    // The connection checks are reported by name alone; an app's own check also says what is wrong.
    const checks: { name: string; run: () => Promise<unknown>; explained: boolean }[] = [
      { name: 'postgres', run: () => this.pool.query('SELECT 1'), explained: false },
      { name: 'nats', run: () => (this.nc.isClosed() ? Promise.reject(new Error('connection closed')) : this.nc.flush()), explained: false },
    ];
    for (const check of this.appChecks()) {
      const run = async () => {
        const problem = await check.problem();
        if (problem) throw new Error(problem);
      };
      checks.push({ name: check.name, run, explained: true });
    }
    const outcomes = await Promise.all(
      checks.map(({ name, run, explained }) =>
        withinReadinessTimeout(run()).then(
          () => null,
          (error: unknown) => (explained ? `${name}: ${error instanceof Error ? error.message : String(error)}` : name),
        ),
      ),
    );
    const failures = outcomes.filter((failure): failure is string => failure !== null);
    if (failures.length) throw new ServiceUnavailableException({ error: { code: 'service_unavailable', message: `not ready: ${failures.join(', ')}` } });
    return { status: 'ok' };
  }
}

/** How long one readiness check may take before it counts as failed (probes usually give up after 1 s). */
export const READINESS_CHECK_TIMEOUT_MS = 800;

function withinReadinessTimeout<T>(check: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${READINESS_CHECK_TIMEOUT_MS} ms`)), READINESS_CHECK_TIMEOUT_MS);
  });
  // A check that answers after the timeout must not surface as an unhandled rejection.
  check.catch(() => undefined);
  return Promise.race([check, timeout]).finally(() => clearTimeout(timer));
}

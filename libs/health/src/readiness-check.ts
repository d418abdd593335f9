import { FactoryProvider, InjectionToken } from '@nestjs/common';

/**
 * Something an app needs working before it is ready, beyond Postgres and NATS
 * (a consumer that is consuming, the event store answering). An app lists its
 * checks under READINESS_CHECKS (readinessChecks(...)); /health/ready fails
 * while any reports a problem or rejects.
 */
export interface ReadinessCheck {
  readonly name: string;
  /** null when fine; otherwise what is wrong. */
  problem(): Promise<string | null>;
}

export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

/** The app's READINESS_CHECKS: the providers named, each a ReadinessCheck. */
export function readinessChecks(...checks: InjectionToken[]): FactoryProvider<ReadinessCheck[]> {
  return { provide: READINESS_CHECKS, inject: checks, useFactory: (...instances: ReadinessCheck[]) => instances };
}

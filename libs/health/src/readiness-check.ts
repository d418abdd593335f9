/**
 * Something an app needs working before it is ready, beyond Postgres and NATS
 * (a consumer that is consuming, say). An app provides its checks under
 * READINESS_CHECKS; /health/ready fails while any reports a problem.
 */
export interface ReadinessCheck {
  readonly name: string;
  /** null when fine; otherwise what is wrong. */
  problem(): Promise<string | null>;
}

export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

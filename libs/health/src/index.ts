export * from './health.module';
export * from './readiness-check';

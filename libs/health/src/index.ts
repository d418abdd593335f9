export * from './health.module';
export * from './public.decorator';
export * from './readiness-check';

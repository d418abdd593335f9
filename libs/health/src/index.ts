export * from './health.module';
export * from './public.decorator';

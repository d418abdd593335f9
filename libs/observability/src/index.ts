export * from './request-context';
export * from './redact';
export * from './json-logger';
export * from './trace-propagation';
export * from './metrics';
export * from './http-observability';
export * from './metrics.controller';
export * from './observability.module';

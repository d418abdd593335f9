export * from './connector';
export * from './endpoints';
export * from './registry';
export { PlatformCallFailed, PlatformOutcomeUnknown } from './http/platform-http';
export { DEFAULT_RETRY_POLICY } from './http/retry-policy';
export type { RetryPolicy } from './http/retry-policy';
export { GRAPH_API_VERSION, THREADS_API_VERSION } from './connectors/meta-graph';
export { LINKEDIN_API_VERSION } from './connectors/linkedin.connector';

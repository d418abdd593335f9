export * from './rate-limit-policy';
export * from './sliding-window';
export * from './rate-limit-store';
export * from './rate-limiter';

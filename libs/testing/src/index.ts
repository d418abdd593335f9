export * from './test-database';
export * from './until';

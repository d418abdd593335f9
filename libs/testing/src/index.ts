export * from './test-database';
export * from './until';
export * from './decider-spec';
export * from './sql-of';

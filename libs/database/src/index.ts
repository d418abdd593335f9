export * from './migrate';
export * from './pool';
export * from './database.module';
export * from './transaction';
export * from './unavailable';
export * from './same-moment-reads';
export * from './one-statement';
export * from './prepared';

export * from './x-pool';
export * from './quotas.module';
export * from './spend-x-pool';

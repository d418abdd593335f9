export * from './position';
export * from './event-store.port';
export * from './postgres-event-store';
export * from './follow-feed';
export * from './event-store.module';
export * from './checkpoint-store';
export * from './feed-processor';
export * from './relay';

export * from './position';
export * from './event-store.port';
export * from './postgres-event-store';
export * from './follow-feed';

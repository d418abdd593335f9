// Positions live in contracts (the read models compare them without the store); re-exported for the store's callers.
export { comparePositions, formatPosition, parsePosition, START } from '@app/contracts';
export type { GlobalPosition } from '@app/contracts';
export * from './event-store.port';
export * from './postgres-event-store';
export * from './follow-feed';
export * from './event-store.module';
export * from './event-store.readiness';
export * from './checkpoint-store';
export * from './feed-processor';
export * from './event-envelope';
export * from './aggregate-stream';
export * from './command-runner';
export * from './append-batcher';
export * from './append-signal';
export * from './nats-append-signal';
export * from './throttled-checkpoint';
export * from './last-written';

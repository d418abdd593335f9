export * from './nats-connection';
export * from './command-bus';
export * from './event-stream';
export * from './messaging.module';
export * from './event-consumer';
export * from './commands-server';
export * from './turn-cork';
export * from './jetstream-publisher';

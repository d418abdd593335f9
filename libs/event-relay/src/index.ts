export * from './relay-to-jetstream';

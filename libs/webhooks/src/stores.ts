/**
 * The webhook endpoints and deliveries as stored, without the fan-out and the dispatcher:
 * what the gateway needs. Importing this entry (not the lib's index) keeps the event store,
 * which the fan-out reads, out of the gateway process (.dependency-cruiser.cjs).
 */
export * from './endpoint-store';
export * from './delivery-store';
export * from './delivery-log-page';
export * from './webhooks-stores.module';

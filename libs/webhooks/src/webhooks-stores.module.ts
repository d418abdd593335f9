import { Global, Module } from '@nestjs/common';
import { Pool } from 'pg';
import { TokenCipher } from '@app/accounts';
import { PG_POOL } from '@app/database';
import { WebhookDeliveryStore } from './delivery-store';
import { WebhookEndpointStore } from './endpoint-store';

/** The endpoint and delivery stores, for the webhooks service (writes) and the gateway (the API's reads). Needs the accounts lib's TokenCipher. */
@Global()
@Module({
  providers: [
    { provide: WebhookEndpointStore, inject: [PG_POOL, TokenCipher], useFactory: (pool: Pool, cipher: TokenCipher) => new WebhookEndpointStore(pool, cipher) },
    { provide: WebhookDeliveryStore, inject: [PG_POOL], useFactory: (pool: Pool) => new WebhookDeliveryStore(pool) },
  ],
  exports: [WebhookEndpointStore, WebhookDeliveryStore],
})
export class WebhookStoresModule {}

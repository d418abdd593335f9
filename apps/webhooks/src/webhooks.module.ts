import { DynamicModule, Module, OnApplicationShutdown } from '@nestjs/common';
import { Pool } from 'pg';
import { AppConfig, AppConfigModule } from '@app/config';
import { AccountsModule } from '@app/accounts';
import { DatabaseModule, PG_POOL } from '@app/database';
import { EVENT_STORE, EventStore, EventStoreModule, EventStoreReadiness } from '@app/event-store';
import { HealthModule, readinessChecks } from '@app/health';
import { MessagingModule } from '@app/messaging';
import { ObservabilityModule } from '@app/observability';
import { WebhookDeliveryStore, WebhookDispatcher, WebhookEndpointStore, WebhookFanout, WebhookStoresModule, WebhookTarget, WorkspacesWithEndpoints } from '@app/webhooks';
import { DeliveriesWorker } from './delivery/deliveries.worker';
import { WebhookEndpointsHandler } from './endpoints/webhook-endpoints.handler';
import { WebhooksCommandsServer } from './webhooks-commands.server';

/** Webhooks for API clients: endpoints, the deliveries of stored events (signed, retried, replayable), the delivery log's writes. */
@Module({})
export class WebhooksModule implements OnApplicationShutdown {
  constructor(private readonly target: WebhookTarget) {}

  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WebhooksModule,
      imports: [AppConfigModule.forRoot(config), DatabaseModule, MessagingModule, EventStoreModule, AccountsModule, WebhookStoresModule, HealthModule, ObservabilityModule],
      providers: [
        {
          provide: WebhookTarget,
          useFactory: () =>
            new WebhookTarget({ allowedHosts: config.webhookAllowedHosts, timeoutMs: config.webhookTimeoutMs, maxResponseBytes: config.webhookMaxResponseBytes }),
        },
        {
          provide: WebhookDispatcher,
          inject: [WebhookEndpointStore, WebhookDeliveryStore, WebhookTarget],
          useFactory: (endpoints: WebhookEndpointStore, deliveries: WebhookDeliveryStore, target: WebhookTarget) =>
            new WebhookDispatcher(endpoints, deliveries, target, {
              now: () => config.now(),
              // An attempt takes at most the timeout; the lease outlives it so a live deliverer keeps its endpoint.
              leaseMs: config.webhookTimeoutMs * 2 + 1_000,
              maxEndpointsInFlight: config.webhookMaxEndpointsInFlight,
            }),
        },
        { provide: WorkspacesWithEndpoints, inject: [PG_POOL], useFactory: (pool: Pool) => new WorkspacesWithEndpoints(pool, config.databaseUrl) },
        {
          provide: WebhookFanout,
          inject: [WebhookEndpointStore, WebhookDeliveryStore, EVENT_STORE, WorkspacesWithEndpoints],
          useFactory: (endpoints: WebhookEndpointStore, deliveries: WebhookDeliveryStore, events: EventStore, presence: WorkspacesWithEndpoints) =>
            new WebhookFanout(endpoints, deliveries, events, () => config.now(), presence),
        },
        DeliveriesWorker,
        WebhookEndpointsHandler,
        WebhooksCommandsServer,
        readinessChecks(DeliveriesWorker, EventStoreReadiness),
      ],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.target.close();
  }
}

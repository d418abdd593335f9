import { DynamicModule, Module } from '@nestjs/common';
import { AccountsModule } from '@app/accounts';
import { AppConfig, AppConfigModule } from '@app/config';
import { accountCredentialsProviders, CommandReauthReporter } from '@app/credentials';
import { DatabaseModule } from '@app/database';
import { AppendBatcher, EVENT_STORE, EventStore, EventStoreModule, EventStoreReadiness } from '@app/event-store';
import { HealthModule, readinessChecks } from '@app/health';
import { MessagingModule } from '@app/messaging';
import { ObservabilityModule } from '@app/observability';
import { ConnectorRegistry, platformClientOptions } from '@app/platforms';
import { CollectionStore } from './collect/collection-store';
import { MetricsCollector } from './collect/metrics-collector';

/** Analytics: collects published items' and accounts' numbers from the platforms on a schedule and records them as events. */
@Module({})
export class AnalyticsModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AnalyticsModule,
      imports: [AppConfigModule.forRoot(config), DatabaseModule, MessagingModule, EventStoreModule, AccountsModule, HealthModule, ObservabilityModule],
      providers: [
        {
          provide: ConnectorRegistry,
          // A rate-limited read is never waited out inside the call: it fails at once with the wait the
          // platform named, and the collector pauses that account alone (RateLimitBackoff) while the others go on.
          useFactory: () => new ConnectorRegistry(platformClientOptions({ ...config, platformRetry: { ...config.platformRetry, maxRateLimitWaitMs: 0 } })),
        },
        // A refused token is renewed once; one refused for good is reported to the accounts service (needs_reauth).
        ...accountCredentialsProviders(config, CommandReauthReporter),
        { provide: AppendBatcher, useFactory: (store: EventStore) => new AppendBatcher(store), inject: [EVENT_STORE] },
        CollectionStore,
        MetricsCollector,
        readinessChecks(EventStoreReadiness),
      ],
    };
  }
}

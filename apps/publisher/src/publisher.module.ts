import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig, AppConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { HealthModule, readinessChecks } from '@app/health';
import { ObservabilityModule } from '@app/observability';
import { CommandClient, MessagingModule } from '@app/messaging';
import { ConnectorRegistry, platformClientOptions } from '@app/platforms';
import { QuotasModule } from '@app/quotas';
import { AccountsModule } from '@app/accounts';
import { accountCredentialsProviders, CommandReauthReporter } from '@app/credentials';
import { PostsPublication } from './publish/posts-publication.client';
import { PublishRequestedHandler } from './publish/publish-requested.handler';
import { PublishRequestsWorker } from './publish-requests.worker';
import { DuePostsScheduler } from './schedule/due-posts.scheduler';

/** Publishes posts to the platforms when the posts service asks for it (PublishRequested), reporting every outcome back. */
@Module({})
export class PublisherModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: PublisherModule,
      imports: [AppConfigModule.forRoot(config), DatabaseModule, MessagingModule, AccountsModule, QuotasModule, HealthModule, ObservabilityModule],
      providers: [
        { provide: ConnectorRegistry, useFactory: () => new ConnectorRegistry(platformClientOptions(config)) },
        ...accountCredentialsProviders(config, CommandReauthReporter),
        { provide: PostsPublication, inject: [CommandClient], useFactory: (commands: CommandClient) => new PostsPublication(commands) },
        PublishRequestedHandler,
        PublishRequestsWorker,
        DuePostsScheduler,
        // /health/ready fails while the consumer is not consuming (a worker that never registered).
        readinessChecks(PublishRequestsWorker),
      ],
    };
  }
}

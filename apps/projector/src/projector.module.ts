import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig, AppConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { EventStoreModule, EventStoreReadiness } from '@app/event-store';
import { HealthModule, readinessChecks } from '@app/health';
import { ObservabilityModule } from '@app/observability';
import { MessagingModule } from '@app/messaging';
import { ProjectorService } from './projector.service';

/** Builds the read models from the event feed and relays the feed to JetStream. */
@Module({})
export class ProjectorModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ProjectorModule,
      imports: [AppConfigModule.forRoot(config), DatabaseModule, MessagingModule, EventStoreModule, HealthModule, ObservabilityModule],
      providers: [ProjectorService, readinessChecks(EventStoreReadiness)],
    };
  }
}

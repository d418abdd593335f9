import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig, AppConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { EventStoreModule, EventStoreReadiness } from '@app/event-store';
import { HealthModule, readinessChecks } from '@app/health';
import { ObservabilityModule } from '@app/observability';
import { MessagingModule } from '@app/messaging';
import { ProjectorService } from './projector.service';
import { READ_MODELS } from './read-models';

/**
 * The fewest connections the projector runs on. The read models' batch holds one for its transaction
 * and may read a stream with a second (catching a stream up in revision order), and the relay reads
 * the feed while it saves its checkpoint: below two per feed follower, every follower can hold one and
 * wait for another for ever. So DATABASE_POOL_SIZE never sizes the projector's pool below this, which
 * still counts two per read model (as when each had its own follower): more than the two followers need.
 */
export const PROJECTOR_MIN_POOL_SIZE = 2 * (READ_MODELS.length + 1);

/** Builds the read models from the event feed and relays the feed to JetStream. */
@Module({})
export class ProjectorModule {
  static forRoot(config: AppConfig): DynamicModule {
    const own = config.with({ databasePoolSize: Math.max(config.databasePoolSize, PROJECTOR_MIN_POOL_SIZE) });
    return {
      module: ProjectorModule,
      imports: [AppConfigModule.forRoot(own), DatabaseModule, MessagingModule, EventStoreModule, HealthModule, ObservabilityModule],
      providers: [ProjectorService, readinessChecks(EventStoreReadiness)],
    };
  }
}

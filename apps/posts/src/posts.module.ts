import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig, AppConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { EventStoreModule, EventStoreReadiness } from '@app/event-store';
import { HealthModule, readinessChecks } from '@app/health';
import { ObservabilityModule } from '@app/observability';
import { MessagingModule } from '@app/messaging';
import { AccountsModule } from '@app/accounts';
import { WorkspacesModule } from '@app/workspaces';
import { BulkCreateHandler } from './create-post/bulk-create.handler';
import { ReviewPolicy } from './review/review-policy';
import { ReviewPostHandler } from './review/review-post.handler';
import { CreatePostHandler } from './create-post/create-post.handler';
import { EditPostHandler } from './edit-post/edit-post.handler';
import { SchedulerCommandsHandler } from './scheduler-commands/scheduler-commands.handler';
import { PostCommandRunner } from './domain/post-command-runner';
import { PublicationHandler } from './publish-post/publication.handler';
import { PublishPostHandler } from './publish-post/publish-post.handler';
import { PostsCommandsServer } from './posts-commands.server';
import { QueueCommandRunner } from './queue/queue-command-runner';
import { QueuePlacement } from './queue/queue-placement';
import { SetScheduleHandler } from './queue/set-schedule.handler';

/** The command side of posts: decides on post commands and appends their events. */
@Module({})
export class PostsModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: PostsModule,
      imports: [AppConfigModule.forRoot(config), DatabaseModule, MessagingModule, EventStoreModule, AccountsModule, WorkspacesModule, HealthModule, ObservabilityModule],
      providers: [PostCommandRunner, QueueCommandRunner, QueuePlacement, SetScheduleHandler, CreatePostHandler, PublishPostHandler, PublicationHandler, EditPostHandler, SchedulerCommandsHandler, ReviewPolicy, ReviewPostHandler, BulkCreateHandler, PostsCommandsServer, readinessChecks(EventStoreReadiness)],
    };
  }
}

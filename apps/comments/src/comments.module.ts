import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig, AppConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { AppendBatcher, EVENT_STORE, EventStore, EventStoreModule, EventStoreReadiness } from '@app/event-store';
import { HealthModule, readinessChecks } from '@app/health';
import { ObservabilityModule } from '@app/observability';
import { MessagingModule } from '@app/messaging';
import { ConnectorRegistry, platformClientOptions } from '@app/platforms';
import { QuotasModule } from '@app/quotas';
import { AccountsModule } from '@app/accounts';
import { accountCredentialsProviders, CommandReauthReporter } from '@app/credentials';
import { CommentsCommandsServer } from './comments-commands.server';
import { CommentCommandRunner } from './domain/comment-command-runner';
import { CommentIngestion } from './ingest/comment-ingestion';
import { CommentsPoller } from './ingest/comments.poller';
import { PublishedItems } from './ingest/published-items';
import { RecentReplies } from './ingest/recent-replies';
import { WebhookCommentsHandler } from './ingest/webhook-comments.handler';
import { DeleteReplyHandler } from './moderation/delete-reply.handler';
import { SetCommentHiddenHandler } from './moderation/set-comment-hidden.handler';
import { ReplyToCommentHandler } from './reply/reply-to-comment.handler';
import { CommentActor } from './acting/comment-actor';

/** The command side of comments: ingests them (poll and webhooks), classifies them, posts replies. */
@Module({})
export class CommentsModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CommentsModule,
      imports: [AppConfigModule.forRoot(config), DatabaseModule, MessagingModule, EventStoreModule, AccountsModule, QuotasModule, HealthModule, ObservabilityModule],
      providers: [
        { provide: ConnectorRegistry, useFactory: () => new ConnectorRegistry(platformClientOptions(config)) },
        ...accountCredentialsProviders(config, CommandReauthReporter),
        CommentCommandRunner,
        // One per process: every ingestion's appends (polls, concurrent webhooks) share its statements.
        { provide: AppendBatcher, useFactory: (store: EventStore) => new AppendBatcher(store), inject: [EVENT_STORE] },
        PublishedItems,
        RecentReplies,
        CommentIngestion,
        CommentsPoller,
        WebhookCommentsHandler,
        CommentActor,
        ReplyToCommentHandler,
        SetCommentHiddenHandler,
        DeleteReplyHandler,
        CommentsCommandsServer,
        readinessChecks(EventStoreReadiness),
      ],
    };
  }
}

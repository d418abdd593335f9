import { DynamicModule, Inject, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { Pool } from 'pg';
import { AppConfig, AppConfigModule } from '@app/config';
import { DatabaseModule, PG_POOL } from '@app/database';
import { HealthModule } from '@app/health';
import { ObservabilityModule } from '@app/observability';
import { MessagingModule } from '@app/messaging';
import { COMMENT_VIEWS_PROJECTION, COMMENT_VIEWS_WAITER, CommentViewsReader, MetricsViewsReader, POST_VIEWS_PROJECTION, PostViewsReader, ProjectionWaiter, QueueViewsReader } from '@app/read-models';
import { AccountsModule } from '@app/accounts';
import { WebhookStoresModule } from '@app/webhooks/stores';
import { WorkspacesModule } from '@app/workspaces';
import { AccountsController } from './accounts/accounts.controller';
import { AnalyticsController } from './analytics/analytics.controller';
import { CommentsController } from './comments/comments.controller';
import { MetaWebhookController } from './comments/meta-webhook.controller';
import { ConnectLinksController } from './connect-links/connect-links.controller';
import { ConnectPageController } from './connect-page/connect-page.controller';
import { ApiKeyGuard } from './auth/api-key.guard';
import { KeyAuthenticator } from './auth/key-authenticator';
import { ApiExceptionFilter } from './errors/api-exception.filter';
import { RequestBounds } from './http/request-bounds';
import { McpModule } from './mcp/mcp.module';
import { MeController } from './me/me.controller';
import { StorablePathParams } from './validation/storable-path-params';
import { PostAnswers } from './posts/post-answers';
import { PostsController } from './posts/posts.controller';
import { RATE_LIMIT_PROVIDERS } from './rate-limit/rate-limit.providers';
import { RequestShapeGuard } from './validation/request-shape';
import { WebhooksController } from './webhooks/webhooks.controller';
import { CalendarController } from './calendar/calendar.controller';
import { QueueController } from './queue/queue.controller';
import { WorkspaceController } from './workspace/workspace.controller';
import { BulkImportController } from './posts/bulk/bulk-import.controller';

/** The HTTP API: keys and scopes, validation, commands out over NATS, lists from the read models. */
@Module({})
export class GatewayModule implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(ProjectionWaiter) private readonly projection: ProjectionWaiter,
    @Inject(COMMENT_VIEWS_WAITER) private readonly commentProjection: ProjectionWaiter,
  ) {}

  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: GatewayModule,
      imports: [AppConfigModule.forRoot(config), DatabaseModule, MessagingModule, WorkspacesModule, AccountsModule, WebhookStoresModule, HealthModule, ObservabilityModule, McpModule],
      controllers: [MeController, BulkImportController, PostsController, WorkspaceController, AccountsController, QueueController, CalendarController, CommentsController, AnalyticsController, MetaWebhookController, WebhooksController, ConnectLinksController, ConnectPageController],
      providers: [
        KeyAuthenticator,
        PostAnswers,
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        // After ApiKeyGuard: limits are per key, so they need its principal.
        ...RATE_LIMIT_PROVIDERS,
        // The last guard (a request is authenticated and counted before its shape is judged), before the pipes.
        { provide: APP_GUARD, useClass: RequestShapeGuard },
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        { provide: PostViewsReader, inject: [PG_POOL], useFactory: (pool: Pool) => new PostViewsReader(pool) },
        { provide: CommentViewsReader, inject: [PG_POOL], useFactory: (pool: Pool) => new CommentViewsReader(pool) },
        { provide: QueueViewsReader, inject: [PG_POOL], useFactory: (pool: Pool) => new QueueViewsReader(pool) },
        { provide: MetricsViewsReader, inject: [PG_POOL], useFactory: (pool: Pool) => new MetricsViewsReader(pool) },
        RequestBounds,
        StorablePathParams,
        {
          provide: ProjectionWaiter,
          inject: [PG_POOL, AppConfig],
          useFactory: (pool: Pool, cfg: AppConfig) => new ProjectionWaiter(pool, cfg.databaseUrl, POST_VIEWS_PROJECTION),
        },
        // Each read model has its own checkpoint: a comment write waits for comment_views.
        {
          provide: COMMENT_VIEWS_WAITER,
          inject: [PG_POOL, AppConfig],
          useFactory: (pool: Pool, cfg: AppConfig) => new ProjectionWaiter(pool, cfg.databaseUrl, COMMENT_VIEWS_PROJECTION),
        },
      ],
    };
  }

  async onApplicationBootstrap(): Promise<void> {
    await Promise.all([this.projection.start(), this.commentProjection.start()]);
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.projection.stop(), this.commentProjection.stop()]);
  }
}

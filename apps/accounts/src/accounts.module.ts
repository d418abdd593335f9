import { DynamicModule, Injectable, Module } from '@nestjs/common';
import { AppConfig, AppConfigModule } from '@app/config';
import { AccountsModule as AccountStoreModule } from '@app/accounts';
import { accountCredentialsProviders, ReauthReporter } from '@app/credentials';
import { Pool } from 'pg';
import { DatabaseModule, PG_POOL } from '@app/database';
import { EventStoreModule, EventStoreReadiness } from '@app/event-store';
import { HealthModule, readinessChecks } from '@app/health';
import { MessagingModule } from '@app/messaging';
import { ObservabilityModule } from '@app/observability';
import { ConnectorRegistry, platformClientOptions } from '@app/platforms';
import { WorkspacesModule } from '@app/workspaces';
import { AccountsCommandsServer } from './accounts-commands.server';
import { ConnectLinkPageHandler } from './connect-links/connect-link-page.handler';
import { ConnectLinkStore } from './connect-links/connect-link-store';
import { ConnectLinkToken } from './connect-links/connect-link-token';
import { CreateConnectLinkHandler } from './connect-links/create-connect-link.handler';
import { LiveConnectLinks } from './connect-links/live-connect-links';
import { RevokeConnectLinkHandler } from './connect-links/revoke-connect-link.handler';
import { CompleteConnectHandler } from './connect/complete-connect.handler';
import { ConnectCallbackHandler } from './connect/connect-callback.handler';
import { ConnectState } from './connect/connect-state';
import { ConnectWithCredentialsHandler } from './connect/connect-with-credentials.handler';
import { RedirectUriPolicy } from './connect/redirect-uri-policy';
import { StartConnectHandler } from './connect/start-connect.handler';
import { ListBoardsHandler } from './boards/list-boards.handler';
import { DisconnectAccountHandler } from './disconnect/disconnect-account.handler';
import { CredentialsRefresher } from './keep-alive/credentials-refresher';
import { AccountLifecycle } from './lifecycle/account-lifecycle';

/** Here the lifecycle is in the same process: a refused renewal is recorded directly. */
@Injectable()
class LocalReauthReporter implements ReauthReporter {
  constructor(private readonly lifecycle: AccountLifecycle) {}

  async requireReauth(accountId: string, reason: string, message: string): Promise<void> {
    await this.lifecycle.reauthRequired(accountId, reason, message);
  }
}

/** Accounts: connecting (sign-in, credentials handed in), disconnecting, keeping credentials alive, announcing health. */
@Module({})
export class AccountsModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AccountsModule,
      imports: [AppConfigModule.forRoot(config), DatabaseModule, MessagingModule, EventStoreModule, AccountStoreModule, WorkspacesModule, HealthModule, ObservabilityModule],
      providers: [
        ...accountCredentialsProviders(config, LocalReauthReporter),
        { provide: ConnectState, useFactory: () => new ConnectState(config.tokenEncryptionKey) },
        { provide: RedirectUriPolicy, useFactory: () => new RedirectUriPolicy(config.oauthRedirectAllowedHosts) },
        AccountLifecycle,
        StartConnectHandler,
        ConnectCallbackHandler,
        CompleteConnectHandler,
        ConnectWithCredentialsHandler,
        DisconnectAccountHandler,
        ListBoardsHandler,
        { provide: ConnectLinkStore, inject: [PG_POOL], useFactory: (pool: Pool) => new ConnectLinkStore(pool) },
        { provide: ConnectLinkToken, useFactory: () => new ConnectLinkToken(config.tokenEncryptionKey) },
        LiveConnectLinks,
        CreateConnectLinkHandler,
        RevokeConnectLinkHandler,
        ConnectLinkPageHandler,
        { provide: ConnectorRegistry, useFactory: () => new ConnectorRegistry(platformClientOptions(config)) },
        CredentialsRefresher,
        AccountsCommandsServer,
        readinessChecks(EventStoreReadiness),
      ],
    };
  }
}

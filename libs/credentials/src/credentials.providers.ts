import { Injectable, Provider, Type } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { AccountStore } from '@app/accounts';
import { CommandClient } from '@app/messaging';
import { PlatformAuthRegistry, platformClientOptions } from '@app/platforms';
import { AccountCredentials, ReauthReporter } from './account-credentials';
import { OAuthApps } from './oauth-apps';

export const REAUTH_REPORTER = Symbol('REAUTH_REPORTER');

/** Reports to the accounts service over NATS (the publisher and the comments service do this). */
@Injectable()
export class CommandReauthReporter implements ReauthReporter {
  constructor(private readonly commands: CommandClient) {}

  async requireReauth(accountId: string, reason: string, message: string): Promise<void> {
    await this.commands.request('accounts.require-reauth', { accountId, reason, message });
  }
}

/**
 * What an app needs to act as accounts with credentials that stay alive: the sign-in
 * clients (pointed where the connectors are), our apps on the platforms, and the keeper.
 */
export function accountCredentialsProviders(config: AppConfig, reporter: Type<ReauthReporter>): Provider[] {
  return [
    { provide: PlatformAuthRegistry, useFactory: () => new PlatformAuthRegistry(platformClientOptions(config)) },
    {
      provide: OAuthApps,
      inject: [AccountStore, PlatformAuthRegistry],
      useFactory: (store: AccountStore, auth: PlatformAuthRegistry) => new OAuthApps({ apps: config.platformApps, callbackUrl: config.oauthCallbackUrl }, store, auth),
    },
    { provide: REAUTH_REPORTER, useClass: reporter },
    {
      provide: AccountCredentials,
      inject: [AccountStore, PlatformAuthRegistry, OAuthApps, REAUTH_REPORTER],
      useFactory: (store: AccountStore, auth: PlatformAuthRegistry, apps: OAuthApps, reauth: ReauthReporter) =>
        new AccountCredentials(store, auth, apps, reauth, { refreshAheadMs: config.tokenRefreshAheadMs, now: config.now }),
    },
  ];
}

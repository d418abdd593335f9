import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { ConnectedAccountsReply, ConnectWithCredentialsCommand, DomainError } from '@app/contracts';
import { PlatformAuthRegistry, platformEndpointsOf, SignedInAccount } from '@app/platforms';
import { toAccountView } from '@app/accounts';
import { AccountLifecycle } from '../lifecycle/account-lifecycle';
import { checkedInstanceUrl, connectFailure } from './connect-errors';

/**
 * POST /api/v1/accounts: credentials obtained elsewhere (a token, with its refresh token
 * and expiry when known), or a Bluesky handle and app password. The platform is asked who
 * the credential belongs to before anything is stored: a credential it refuses stores
 * nothing (invalid_credentials).
 */
@Injectable()
export class ConnectWithCredentialsHandler {
  constructor(
    private readonly config: AppConfig,
    private readonly auth: PlatformAuthRegistry,
    private readonly lifecycle: AccountLifecycle,
  ) {}

  async handle(command: ConnectWithCredentialsCommand): Promise<ConnectedAccountsReply> {
    const signIn = this.auth.get(command.platform);
    const configured = platformEndpointsOf(this.config)[command.platform];
    let signedIn: SignedInAccount[];
    try {
      if (signIn.logIn) {
        if (!command.handle || !command.appPassword) throw new DomainError('invalid_body', `${command.platform} connects with handle and appPassword`);
        signedIn = await signIn.logIn({ identifier: command.handle, password: command.appPassword, instanceUrl: await checkedInstanceUrl(command.pds, configured) });
      } else {
        if (!command.accessToken) throw new DomainError('invalid_body', `${command.platform} connects with accessToken (and refreshToken, expiresAt when you have them)`);
        const instanceUrl = signIn.registerApp ? ((await checkedInstanceUrl(command.instanceUrl, configured)) ?? configured) : null;
        signedIn = await signIn.identify(
          { accessToken: command.accessToken, refreshToken: command.refreshToken ?? null, expiresAt: command.expiresAt ?? null, refreshTokenExpiresAt: null, scopes: [] },
          instanceUrl,
        );
      }
    } catch (error) {
      if (error instanceof DomainError) throw error;
      throw connectFailure(error, command.platform);
    }
    if (signedIn.length === 0) throw new DomainError('invalid_credentials', 'the credential gives access to no account this service can act as');
    const accounts = await this.lifecycle.connected(command.workspaceId, signedIn);
    return { accounts: accounts.map(toAccountView) };
  }
}

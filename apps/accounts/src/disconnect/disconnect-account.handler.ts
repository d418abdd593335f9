import { Injectable, Logger } from '@nestjs/common';
import { AccountView, DisconnectAccountCommand } from '@app/contracts';
import { AccountStore, toAccountView } from '@app/accounts';
import { OAuthApps } from '@app/credentials';
import { PlatformAuthRegistry } from '@app/platforms';
import { AccountLifecycle, ownedBy } from '../lifecycle/account-lifecycle';

/**
 * DELETE /api/v1/accounts/:id: revokes our token where the platform offers it (best
 * effort: a platform that does not answer does not keep the account connected here),
 * then forgets the credentials and announces AccountDisconnected.
 */
@Injectable()
export class DisconnectAccountHandler {
  private readonly logger = new Logger('DisconnectAccount');

  constructor(
    private readonly store: AccountStore,
    private readonly apps: OAuthApps,
    private readonly auth: PlatformAuthRegistry,
    private readonly lifecycle: AccountLifecycle,
  ) {}

  async handle(command: DisconnectAccountCommand): Promise<AccountView> {
    const account = ownedBy(await this.store.get(command.accountId), command.workspaceId);
    if (account.status === 'disconnected') return toAccountView(account);
    const revoked = await this.revoke(account.id);
    return toAccountView((await this.lifecycle.disconnected(account.id, revoked)) ?? account);
  }

  private async revoke(accountId: string): Promise<boolean> {
    const secrets = await this.store.secrets(accountId);
    if (!secrets) return false;
    const { platform, instanceUrl } = secrets.account;
    try {
      await this.auth.get(platform).revoke(await this.apps.appFor(platform, instanceUrl), secrets.credentials, secrets.identity);
      return true;
    } catch (error) {
      this.logger.warn(`revoking the token of account ${accountId} on ${platform} failed: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  }
}

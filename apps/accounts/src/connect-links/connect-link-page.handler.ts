import { Injectable } from '@nestjs/common';
import {
  CompleteConnectLinkSignInCommand,
  ConnectedAccountsReply,
  ConnectLinkAppPasswordCommand,
  ConnectLinkCommand,
  ConnectLinkPage,
  ConnectLinkPlatform,
  DomainError,
  FinishConnectLinkReply,
  Platform,
  PLATFORMS,
  StartConnectLinkSignInCommand,
  StartConnectLinkSignInReply,
} from '@app/contracts';
import { AccountStore } from '@app/accounts';
import { PlatformAuthRegistry } from '@app/platforms';
import { CompleteConnectHandler } from '../connect/complete-connect.handler';
import { backTo } from '../connect/connect-callback.handler';
import { ConnectWithCredentialsHandler } from '../connect/connect-with-credentials.handler';
import { StartConnectHandler } from '../connect/start-connect.handler';
import { ConnectLink, ConnectLinkStore } from './connect-link-store';
import { LiveConnectLinks } from './live-connect-links';

/**
 * What the connect page asks, for the link in its url (no API key: the signed token is the
 * proof, and only while the link is neither revoked nor expired). Each step is the API's own
 * (start a sign-in, complete it with the verifier, connect with an app password) acting for
 * the link's workspace; the page only adds where the sign-in comes back (the page itself) and
 * remembers which accounts it connected.
 */
@Injectable()
export class ConnectLinkPageHandler {
  constructor(
    private readonly links: LiveConnectLinks,
    private readonly store: ConnectLinkStore,
    private readonly accounts: AccountStore,
    private readonly auth: PlatformAuthRegistry,
    private readonly startConnect: StartConnectHandler,
    private readonly completeConnect: CompleteConnectHandler,
    private readonly withCredentials: ConnectWithCredentialsHandler,
  ) {}

  async open({ token }: ConnectLinkCommand): Promise<ConnectLinkPage> {
    const link = await this.links.resolve(token);
    const offered = link.platforms ?? [...PLATFORMS];
    const byPlatform = new Map<Platform, ConnectLinkPlatform>(offered.map((platform) => [platform, { platform, connectsWith: this.connectsWith(platform), accounts: [] }]));
    for (const accountId of await this.store.accountIds(link.id)) {
      const account = await this.accounts.get(accountId);
      if (!account) continue;
      // One Facebook sign-in also gives Instagram accounts: shown under their own platform.
      let entry = byPlatform.get(account.platform);
      if (!entry) byPlatform.set(account.platform, (entry = { platform: account.platform, connectsWith: this.connectsWith(account.platform), accounts: [] }));
      entry.accounts.push({ id: account.id, account: account.handle, displayName: account.displayName, status: account.status });
    }
    return { id: link.id, brand: link.brand, expiresAt: link.expiresAt.toISOString(), platforms: [...byPlatform.values()] };
  }

  async start(command: StartConnectLinkSignInCommand): Promise<StartConnectLinkSignInReply> {
    const link = this.offering(await this.links.resolve(command.token), command.platform);
    const started = await this.startConnect.begin({ workspaceId: link.workspaceId, platform: command.platform, redirectUri: this.links.pageUrl(command.token), instanceUrl: command.instanceUrl });
    return { authorizationUrl: started.authorizationUrl, verifier: started.verifier, returnUrl: this.links.pageUrl(command.token) };
  }

  async complete(command: CompleteConnectLinkSignInCommand): Promise<ConnectedAccountsReply> {
    const link = await this.links.resolve(command.token);
    const connected = await this.completeConnect.complete(command.connectionId, command.verifier, link.workspaceId);
    await this.store.addAccounts(link.id, connected.accounts.map((account) => account.id));
    return connected;
  }

  async appPassword(command: ConnectLinkAppPasswordCommand): Promise<ConnectedAccountsReply> {
    const link = this.offering(await this.links.resolve(command.token), 'bluesky');
    const connected = await this.withCredentials.handle({ workspaceId: link.workspaceId, platform: 'bluesky', handle: command.handle, appPassword: command.appPassword });
    await this.store.addAccounts(link.id, connected.accounts.map((account) => account.id));
    return connected;
  }

  /** "Done": back to the client's redirectUri with the accounts connected through the link, as the callback sends a sign-in back. */
  async finish({ token }: ConnectLinkCommand): Promise<FinishConnectLinkReply> {
    const link = await this.links.resolve(token);
    const accountIds = await this.store.accountIds(link.id);
    if (accountIds.length === 0) return backTo(link.redirectUri, { error: 'access_denied', error_description: 'no account was connected' });
    return backTo(link.redirectUri, { account_ids: accountIds.join(',') });
  }

  private offering(link: ConnectLink, platform: Platform): ConnectLink {
    if (link.platforms && !link.platforms.includes(platform)) throw new DomainError('platform_not_offered', `this connect link does not offer ${platform}`);
    return link;
  }

  private connectsWith(platform: Platform): ConnectLinkPlatform['connectsWith'] {
    const signIn = this.auth.get(platform);
    if (!signIn.signsInWithOAuth) return 'app_password';
    return signIn.registerApp ? 'instance' : 'oauth';
  }
}

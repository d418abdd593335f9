import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { DomainError, StartConnectCommand, StartConnectReply } from '@app/contracts';
import { AccountStore } from '@app/accounts';
import { OAuthApps } from '@app/credentials';
import { PlatformAuthRegistry, platformEndpointsOf, pkcePair } from '@app/platforms';
import { WorkspaceStore } from '@app/workspaces';
import { checkedInstanceUrl, connectFailure } from './connect-errors';
import { ConnectState } from './connect-state';
import { newConnectVerifier } from './connect-verifier';
import { RedirectUriPolicy } from './redirect-uri-policy';

/**
 * POST /api/v1/accounts/connect: remembers the sign-in (workspace, where to send the user
 * back, the PKCE verifier, the digest of the completion verifier) and answers the platform's
 * consent page url, with a signed, single-use, short-lived state, and the verifier that
 * completes the sign-in (POST /api/v1/accounts/connect/complete), answered only here.
 */
@Injectable()
export class StartConnectHandler {
  constructor(
    private readonly config: AppConfig,
    private readonly store: AccountStore,
    private readonly apps: OAuthApps,
    private readonly auth: PlatformAuthRegistry,
    private readonly state: ConnectState,
    private readonly workspaces: WorkspaceStore,
    private readonly redirects: RedirectUriPolicy,
  ) {}

  async handle(command: StartConnectCommand): Promise<StartConnectReply> {
    this.redirects.check(command.redirectUri, await this.workspaces.redirectOrigins(command.workspaceId));
    const signIn = this.auth.get(command.platform);
    if (!signIn.signsInWithOAuth) {
      throw new DomainError('sign_in_not_supported', `${command.platform} accounts connect with POST /api/v1/accounts (handle and app password)`);
    }
    const configured = platformEndpointsOf(this.config)[command.platform];
    const instanceUrl = signIn.registerApp ? ((await checkedInstanceUrl(command.instanceUrl, configured)) ?? configured) : null;
    const app = await this.apps.appFor(command.platform, instanceUrl, true).catch((error: unknown) => {
      throw connectFailure(error, command.platform);
    });
    if (!app) throw new DomainError('platform_not_configured', `${command.platform} has no app configured for signing in (${(signIn.appPlatform ?? command.platform).toUpperCase()}_CLIENT_ID, _CLIENT_SECRET and OAUTH_CALLBACK_URL)`);
    const pkce = pkcePair();
    const completion = newConnectVerifier();
    const expiresAt = new Date(this.config.now().getTime() + this.config.connectStateTtlMs);
    const requestId = await this.store.createConnectRequest(
      { workspaceId: command.workspaceId, platform: command.platform, redirectUri: command.redirectUri, instanceUrl, codeVerifier: pkce.verifier, verifierHash: completion.hash },
      expiresAt,
    );
    const state = this.state.sign(requestId);
    return {
      authorizationUrl: signIn.authorizationUrl({ app, state, codeChallenge: pkce.challenge, instanceUrl }),
      state,
      verifier: completion.verifier,
      expiresAt: expiresAt.toISOString(),
    };
  }
}

import { Injectable, Logger } from '@nestjs/common';
import { CompleteConnectCommand, CompleteConnectReply, DomainError } from '@app/contracts';
import { AccountStore } from '@app/accounts';
import { OAuthApps } from '@app/credentials';
import { PlatformAuthRegistry } from '@app/platforms';
import { AccountLifecycle } from '../lifecycle/account-lifecycle';
import { connectFailure } from './connect-errors';
import { ConnectState } from './connect-state';

/**
 * GET /api/v1/accounts/connect/callback: the platform sent the user back. Spends the
 * state (once), exchanges the code, reads who signed in (every account the grant gives),
 * stores them, and sends the user to the client's redirectUri with `account_ids`, or with
 * `error` (access_denied, invalid_credentials, platform_unavailable, ...).
 */
@Injectable()
export class CompleteConnectHandler {
  private readonly logger = new Logger('CompleteConnect');

  constructor(
    private readonly store: AccountStore,
    private readonly apps: OAuthApps,
    private readonly auth: PlatformAuthRegistry,
    private readonly lifecycle: AccountLifecycle,
    private readonly state: ConnectState,
  ) {}

  async handle(command: CompleteConnectCommand): Promise<CompleteConnectReply> {
    const requestId = this.state.verify(command.state);
    const request = requestId ? await this.store.spendConnectRequest(requestId) : null;
    if (!request) throw new DomainError('connect_state_invalid', 'this sign-in is unknown, already used or expired; start it again');
    const back = (params: Record<string, string>): CompleteConnectReply => {
      const url = new URL(request.redirectUri);
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
      return { redirectTo: url.toString() };
    };
    if (command.error || !command.code) return back({ error: command.error ?? 'invalid_request', ...(command.errorDescription ? { error_description: command.errorDescription } : {}) });
    try {
      const app = await this.apps.appFor(request.platform, request.instanceUrl);
      if (!app) return back({ error: 'platform_not_configured' });
      const signIn = this.auth.get(request.platform);
      const tokens = await signIn.exchangeCode({ app, code: command.code, codeVerifier: request.codeVerifier, instanceUrl: request.instanceUrl });
      const signedIn = await signIn.identify(tokens, request.instanceUrl);
      if (signedIn.length === 0) return back({ error: 'invalid_credentials', error_description: 'the sign-in gave access to no account this service can act as' });
      const accounts = await this.lifecycle.connected(request.workspaceId, signedIn);
      return back({ account_ids: accounts.map((account) => account.id).join(',') });
    } catch (error) {
      const failure = connectFailure(error, request.platform);
      this.logger.warn(`sign-in to ${request.platform} failed: ${failure.code} ${failure.message}`);
      return back({ error: failure.code, error_description: failure.message });
    }
  }
}

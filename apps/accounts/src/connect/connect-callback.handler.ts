import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { ConnectCallbackCommand, ConnectCallbackReply, DomainError } from '@app/contracts';
import { AccountStore } from '@app/accounts';
import { OAuthApps } from '@app/credentials';
import { PlatformAuthRegistry } from '@app/platforms';
import { connectFailure } from './connect-errors';
import { ConnectState } from './connect-state';

/**
 * GET /api/v1/accounts/connect/callback: the platform sent the user back. Attaches nothing:
 * whoever opens a consent link may be someone other than the client that started it, so
 * the callback only spends the state (once), exchanges the code at once (it would expire
 * otherwise), reads who signed in and holds that as a pending connection, then sends the
 * user to the client's redirectUri with `connection_id`. The client's backend attaches it
 * with the verifier only it received (CompleteConnectHandler).
 *
 * A callback with `error` (the user refused, or anyone who saw the state made one up) proves
 * nothing, so it cancels nothing: the user is sent back with the error and the sign-in stays
 * open until it is called back with a code or expires.
 */
@Injectable()
export class ConnectCallbackHandler {
  private readonly logger = new Logger('ConnectCallback');

  constructor(
    private readonly config: AppConfig,
    private readonly store: AccountStore,
    private readonly apps: OAuthApps,
    private readonly auth: PlatformAuthRegistry,
    private readonly state: ConnectState,
  ) {}

  async handle(command: ConnectCallbackCommand): Promise<ConnectCallbackReply> {
    const requestId = this.state.verify(command.state);
    if (command.error || !command.code) {
      const open = requestId ? await this.store.openConnectRequest(requestId) : null;
      if (!open) throw stateInvalid();
      return backTo(open.redirectUri, { error: command.error ?? 'invalid_request', ...(command.errorDescription ? { error_description: command.errorDescription } : {}) });
    }
    const request = requestId ? await this.store.spendConnectRequest(requestId) : null;
    if (!request) throw stateInvalid();
    const back = (params: Record<string, string>) => backTo(request.redirectUri, params);
    try {
      const app = await this.apps.appFor(request.platform, request.instanceUrl);
      if (!app) return back({ error: 'platform_not_configured' });
      const signIn = this.auth.get(request.platform);
      const tokens = await signIn.exchangeCode({ app, code: command.code, codeVerifier: request.codeVerifier, instanceUrl: request.instanceUrl });
      const signedIn = await signIn.identify(tokens, request.instanceUrl);
      if (signedIn.length === 0) return back({ error: 'invalid_credentials', error_description: 'the sign-in gave access to no account this service can act as' });
      const connectionId = randomUUID();
      await this.store.holdConnection(request.id, connectionId, signedIn, new Date(this.config.now().getTime() + this.config.connectionTtlMs));
      return back({ connection_id: connectionId });
    } catch (error) {
      const failure = connectFailure(error, request.platform);
      this.logger.warn(`sign-in to ${request.platform} failed: ${failure.code} ${failure.message}`);
      return back({ error: failure.code, error_description: failure.message });
    }
  }
}

function stateInvalid(): DomainError {
  return new DomainError('connect_state_invalid', 'this sign-in is unknown, already used or expired; start it again');
}

/** The client's redirectUri with these query parameters added (its own kept). */
export function backTo(redirectUri: string, params: Record<string, string>): ConnectCallbackReply {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return { redirectTo: url.toString() };
}

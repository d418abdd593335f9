import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { CompleteConnectCommand, ConnectedAccountsReply, DomainError } from '@app/contracts';
import { AccountStore, toAccountView } from '@app/accounts';
import { AccountLifecycle } from '../lifecycle/account-lifecycle';
import { completionRefusal } from './completion-refusal';

/**
 * POST /api/v1/accounts/connect/complete: attaches what a sign-in's callback held, for the
 * one who started it. The connection id came back through the user's browser; the verifier
 * was answered only to the caller of POST /api/v1/accounts/connect and never travels in a
 * url. Only now are the accounts stored and announced (AccountConnected), as a sign-in
 * always did.
 */
@Injectable()
export class CompleteConnectHandler {
  constructor(
    private readonly config: AppConfig,
    private readonly store: AccountStore,
    private readonly lifecycle: AccountLifecycle,
  ) {}

  handle(command: CompleteConnectCommand): Promise<ConnectedAccountsReply> {
    return this.complete(command.connectionId, command.verifier, command.workspaceId);
  }

  /**
   * The completion itself, (connectionId, verifier) and the workspace the caller acts for;
   * `workspaceId` null when the verifier is the whole proof (the connect page of issue 25,
   * holding it in a cookie on this origin, will call this). Single-use, expiring, refused
   * for another workspace (not_found) and for a wrong verifier, attaching nothing then.
   */
  async complete(connectionId: string, verifier: string, workspaceId: string | null): Promise<ConnectedAccountsReply> {
    const now = this.config.now();
    const refusal = completionRefusal(await this.store.pendingConnection(connectionId), { workspaceId, verifier, now });
    if (refusal) throw refusal;
    const taken = await this.store.takeConnection(connectionId, now);
    // Between the look and the take another completion won (or the time ran out).
    if (!taken) throw completionRefusal(await this.store.pendingConnection(connectionId), { workspaceId, verifier, now }) ?? new DomainError('connection_already_completed', 'this connection was already completed');
    const accounts = await this.lifecycle.connected(taken.workspaceId, taken.signedIn);
    return { accounts: accounts.map(toAccountView) };
  }
}

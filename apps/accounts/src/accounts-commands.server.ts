import { Inject, Injectable } from '@nestjs/common';
import { NatsConnection } from 'nats';
import { Subjects } from '@app/contracts';
import { CommandHandlers, CommandsServer, NATS_CONNECTION } from '@app/messaging';
import { ConnectLinkPageHandler } from './connect-links/connect-link-page.handler';
import { CreateConnectLinkHandler } from './connect-links/create-connect-link.handler';
import { RevokeConnectLinkHandler } from './connect-links/revoke-connect-link.handler';
import { CompleteConnectHandler } from './connect/complete-connect.handler';
import { ConnectCallbackHandler } from './connect/connect-callback.handler';
import { ConnectWithCredentialsHandler } from './connect/connect-with-credentials.handler';
import { StartConnectHandler } from './connect/start-connect.handler';
import { DisconnectAccountHandler } from './disconnect/disconnect-account.handler';
import { AccountLifecycle } from './lifecycle/account-lifecycle';
import { ListBoardsHandler } from './boards/list-boards.handler';

/** Answers the accounts commands on NATS, in the `accounts` queue group shared by every replica. */
@Injectable()
export class AccountsCommandsServer extends CommandsServer {
  constructor(
    @Inject(NATS_CONNECTION) nc: NatsConnection,
    subjects: Subjects,
    private readonly startConnect: StartConnectHandler,
    private readonly connectCallback: ConnectCallbackHandler,
    private readonly completeConnect: CompleteConnectHandler,
    private readonly connectWithCredentials: ConnectWithCredentialsHandler,
    private readonly disconnect: DisconnectAccountHandler,
    private readonly lifecycle: AccountLifecycle,
    private readonly boards: ListBoardsHandler,
    private readonly createLink: CreateConnectLinkHandler,
    private readonly revokeLink: RevokeConnectLinkHandler,
    private readonly linkPage: ConnectLinkPageHandler,
  ) {
    super(nc, subjects, 'accounts');
  }

  protected handlers(): CommandHandlers {
    return {
      'accounts.connect-start': (payload) => this.startConnect.handle(payload),
      'accounts.connect-callback': (payload) => this.connectCallback.handle(payload),
      'accounts.connect-complete': (payload) => this.completeConnect.handle(payload),
      'accounts.connect-credentials': (payload) => this.connectWithCredentials.handle(payload),
      'accounts.disconnect': (payload) => this.disconnect.handle(payload),
      'accounts.list-boards': (payload) => this.boards.handle(payload),
      'accounts.connect-link-create': (payload) => this.createLink.handle(payload),
      'accounts.connect-link-revoke': (payload) => this.revokeLink.handle(payload),
      'accounts.connect-link-open': (payload) => this.linkPage.open(payload),
      'accounts.connect-link-start': (payload) => this.linkPage.start(payload),
      'accounts.connect-link-complete': (payload) => this.linkPage.complete(payload),
      'accounts.connect-link-app-password': (payload) => this.linkPage.appPassword(payload),
      'accounts.connect-link-finish': (payload) => this.linkPage.finish(payload),
      'accounts.require-reauth': async ({ accountId, reason, message }) => {
        await this.lifecycle.reauthRequired(accountId, reason, message);
        return {};
      },
    };
  }
}

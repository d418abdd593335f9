import { Inject, Injectable } from '@nestjs/common';
import { NatsConnection } from 'nats';
import { Subjects } from '@app/contracts';
import { CommandHandlers, CommandsServer, NATS_CONNECTION } from '@app/messaging';
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
      'accounts.require-reauth': async ({ accountId, reason, message }) => {
        await this.lifecycle.reauthRequired(accountId, reason, message);
        return {};
      },
    };
  }
}

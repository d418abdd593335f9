import { Inject, Injectable } from '@nestjs/common';
import { NatsConnection } from 'nats';
import { CompleteConnectCommand, ConnectWithCredentialsCommand, DisconnectAccountCommand, RequireReauthCommand, StartConnectCommand, Subjects } from '@app/contracts';
import { CommandHandlers, CommandsServer, NATS_CONNECTION } from '@app/messaging';
import { CompleteConnectHandler } from './connect/complete-connect.handler';
import { ConnectWithCredentialsHandler } from './connect/connect-with-credentials.handler';
import { StartConnectHandler } from './connect/start-connect.handler';
import { DisconnectAccountHandler } from './disconnect/disconnect-account.handler';
import { AccountLifecycle } from './lifecycle/account-lifecycle';

/** Answers the accounts commands on NATS, in the `accounts` queue group shared by every replica. */
@Injectable()
export class AccountsCommandsServer extends CommandsServer {
  constructor(
    @Inject(NATS_CONNECTION) nc: NatsConnection,
    subjects: Subjects,
    private readonly startConnect: StartConnectHandler,
    private readonly completeConnect: CompleteConnectHandler,
    private readonly connectWithCredentials: ConnectWithCredentialsHandler,
    private readonly disconnect: DisconnectAccountHandler,
    private readonly lifecycle: AccountLifecycle,
  ) {
    super(nc, subjects, 'accounts');
  }

  protected handlers(): CommandHandlers {
    return {
      'accounts.connect-start': (payload) => this.startConnect.handle(payload as StartConnectCommand),
      'accounts.connect-complete': (payload) => this.completeConnect.handle(payload as CompleteConnectCommand),
      'accounts.connect-credentials': (payload) => this.connectWithCredentials.handle(payload as ConnectWithCredentialsCommand),
      'accounts.disconnect': (payload) => this.disconnect.handle(payload as DisconnectAccountCommand),
      'accounts.require-reauth': async (payload) => {
        const { accountId, reason, message } = payload as RequireReauthCommand;
        await this.lifecycle.reauthRequired(accountId, reason, message);
        return {};
      },
    };
  }
}

import { Injectable } from '@nestjs/common';
import { DomainError, SetPostingScheduleCommand, SetPostingScheduleReply } from '@app/contracts';
import { AccountStore } from '@app/accounts';
import { QueueCommandRunner } from './queue-command-runner';

/** PUT /api/v1/accounts/:id/schedule: sets (replaces) an account's weekly posting schedule. */
@Injectable()
export class SetScheduleHandler {
  constructor(
    private readonly queues: QueueCommandRunner,
    private readonly accounts: AccountStore,
  ) {}

  async handle(command: SetPostingScheduleCommand, requestId: string | undefined): Promise<SetPostingScheduleReply> {
    const account = await this.accounts.get(command.accountId);
    // Another workspace's account does not exist for the caller.
    if (!account || account.workspaceId !== command.workspaceId) throw new DomainError('not_found', 'no such account in this workspace');
    const outcome = await this.queues.run(
      command.accountId,
      (_state, now) => ({ type: 'SetPostingSchedule', workspaceId: command.workspaceId, accountId: command.accountId, timezone: command.timezone, slots: command.slots, now }),
      requestId,
    );
    // A repeat appends nothing; the stream's last position still tells the gateway when the read model shows it.
    return { position: outcome.position! };
  }
}

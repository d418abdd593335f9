import { Injectable } from '@nestjs/common';
import { BoardsReply, DomainError, ListBoardsCommand } from '@app/contracts';
import { AccountStore } from '@app/accounts';
import { AccountCredentials, callAsAccount } from '@app/credentials';
import { ConnectorRegistry } from '@app/platforms';
import { ownedBy } from '../lifecycle/account-lifecycle';

/**
 * GET /api/v1/accounts/:id/boards: the boards of a workspace's account, read from its platform
 * as the account (callAsAccount: its credential renewed once if refused), where the platform has boards
 * (Pinterest: the ids `platformOptions.pinterest.boardId` takes). Nothing is recorded.
 */
@Injectable()
export class ListBoardsHandler {
  constructor(
    private readonly store: AccountStore,
    private readonly credentials: AccountCredentials,
    private readonly connectors: ConnectorRegistry,
  ) {}

  async handle(command: ListBoardsCommand): Promise<BoardsReply> {
    const account = ownedBy(await this.store.get(command.accountId), command.workspaceId);
    const connector = this.connectors.get(account.platform);
    const listBoards = connector.listBoards?.bind(connector);
    if (!listBoards) {
      throw new DomainError('boards_not_supported', `account ${account.id} is on ${account.platform}, which has no boards (Pinterest has)`, { details: { accountId: account.id, platform: account.platform } });
    }
    return { boards: await callAsAccount(this.credentials, account.id, listBoards) };
  }
}

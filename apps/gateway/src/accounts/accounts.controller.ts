import { Controller, Get } from '@nestjs/common';
import { KeyPrincipal, WorkspaceStore } from '@app/workspaces';
import { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/scopes.decorator';

/** The accounts listing the spec refers to as the source of account ids. */
@Controller('api/v1/accounts')
export class AccountsController {
  constructor(private readonly workspaces: WorkspaceStore) {}

  @Get()
  @RequireScopes('read')
  async list(@Principal() principal: KeyPrincipal) {
    const accounts = await this.workspaces.listAccounts(principal.workspaceId);
    return {
      accounts: accounts.map((a) => ({ id: a.id, platform: a.platform, account: a.handle, displayName: a.displayName, status: a.status, createdAt: a.createdAt })),
    };
  }
}

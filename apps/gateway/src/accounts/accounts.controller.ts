import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { KeyPrincipal, WorkspaceStore } from '@app/workspaces';
import { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/scopes.decorator';
import { ApiErrors, AUTHENTICATED_ERRORS } from '../openapi/error-responses';
import { AccountListSchema } from '../openapi/schemas/account.schemas';

/** The accounts listing the spec refers to as the source of account ids. */
@ApiTags('accounts')
@ApiErrors(...AUTHENTICATED_ERRORS)
@Controller('api/v1/accounts')
export class AccountsController {
  constructor(private readonly workspaces: WorkspaceStore) {}

  @Get()
  @RequireScopes('read')
  @ApiOperation({ summary: "The workspace's connected accounts: the source of account ids" })
  @ApiOkResponse({ type: AccountListSchema })
  async list(@Principal() principal: KeyPrincipal) {
    const accounts = await this.workspaces.listAccounts(principal.workspaceId);
    return {
      accounts: accounts.map((a) => ({ id: a.id, platform: a.platform, account: a.handle, displayName: a.displayName, status: a.status, createdAt: a.createdAt })),
    };
  }
}

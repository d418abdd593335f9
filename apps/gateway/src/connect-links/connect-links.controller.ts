import { Body, Controller, Delete, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CONNECT_LINK_DEFAULT_TTL_SECONDS, ConnectLinkCreated, CreateConnectLinkCommand } from '@app/contracts';
import { CommandClient } from '@app/messaging';
import { KeyPrincipal } from '@app/workspaces';
import { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/scopes.decorator';
import { ApiErrors, AUTHENTICATED_ERRORS } from '../openapi/error-responses';
import { OPERATION_ERRORS } from '../openapi/operation-errors';
import { ConnectLinkCreatedSchema } from '../openapi/schemas/connect-link.schemas';
import { bodyValidation } from '../validation/validation-pipes';
import { CreateConnectLinkDto } from './create-connect-link.dto';

/** Links to the hosted connect page (GET /connect/:token), handed by the workspace to its end users. */
@ApiTags('accounts')
@Controller('api/v1/connect-links')
export class ConnectLinksController {
  constructor(private readonly commands: CommandClient) {}

  @Post()
  @HttpCode(201)
  @RequireScopes('accounts')
  @ApiErrors(...AUTHENTICATED_ERRORS, ...OPERATION_ERRORS.createConnectLink)
  @ApiOperation({ summary: 'A signed, expiring link to a hosted page where an end user connects accounts to this workspace (no API key needed to open it)' })
  @ApiCreatedResponse({ type: ConnectLinkCreatedSchema })
  create(@Principal() principal: KeyPrincipal, @Body(bodyValidation) dto: CreateConnectLinkDto): Promise<ConnectLinkCreated> {
    const brand = dto.brand ? { name: dto.brand.name ?? null, logoUrl: dto.brand.logoUrl ?? null, accentColor: dto.brand.accentColor ?? null } : null;
    const command: CreateConnectLinkCommand = {
      workspaceId: principal.workspaceId,
      redirectUri: dto.redirectUri,
      platforms: dto.platforms ?? null,
      expiresInSeconds: dto.expiresInSeconds ?? CONNECT_LINK_DEFAULT_TTL_SECONDS,
      brand,
    };
    return this.commands.request('accounts.connect-link-create', command);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('accounts')
  @ApiErrors(...AUTHENTICATED_ERRORS, ...OPERATION_ERRORS.revokeConnectLink)
  @ApiOperation({ summary: 'Revoke a connect link: its page connects nothing more (accounts it connected stay)' })
  @ApiNoContentResponse({ description: 'revoked (also when it already was)' })
  async revoke(@Principal() principal: KeyPrincipal, @Param('id') id: string): Promise<void> {
    await this.commands.request('accounts.connect-link-revoke', { workspaceId: principal.workspaceId, id });
  }
}

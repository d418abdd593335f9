import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  AccountView,
  BoardsReply,
  CompleteConnectCommand,
  ConnectCallbackCommand,
  ConnectedAccountsReply,
  ConnectWithCredentialsCommand,
  DisconnectAccountCommand,
  DomainError,
  ListBoardsCommand,
  StartConnectCommand,
  StartConnectReply,
} from '@app/contracts';
import { AccountStore, toAccountView } from '@app/accounts';
import { Public } from '@app/observability';
import { CommandClient } from '@app/messaging';
import { KeyPrincipal } from '@app/workspaces';
import { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/scopes.decorator';
import { ApiErrors, AUTHENTICATED_ERRORS } from '../openapi/error-responses';
import { OPERATION_ERRORS } from '../openapi/operation-errors';
import { AccountListSchema, AccountSchema, BoardsSchema, ConnectedAccountsSchema, StartConnectSchema } from '../openapi/schemas/account.schemas';
import { bodyValidation, platformQueryValidation } from '../validation/validation-pipes';
import { CompleteConnectDto, ConnectCallbackQuery, ConnectWithCredentialsDto, StartConnectDto } from './connect-account.dto';

/** The workspace's social accounts: the listing the spec refers to, connecting (sign-in or credentials) and disconnecting. */
@ApiTags('accounts')
@Controller('api/v1/accounts')
export class AccountsController {
  constructor(
    private readonly accounts: AccountStore,
    private readonly commands: CommandClient,
  ) {}

  @Get()
  @RequireScopes('read')
  @ApiErrors(...AUTHENTICATED_ERRORS, ...OPERATION_ERRORS.listAccounts)
  @ApiOperation({ summary: "The workspace's accounts with their health: the source of account ids" })
  @ApiOkResponse({ type: AccountListSchema })
  async list(@Principal() principal: KeyPrincipal): Promise<{ accounts: AccountView[] }> {
    return { accounts: (await this.accounts.list(principal.workspaceId)).map(toAccountView) };
  }

  @Post('connect')
  @HttpCode(200)
  @RequireScopes('accounts')
  @ApiErrors(...AUTHENTICATED_ERRORS, ...OPERATION_ERRORS.startConnect)
  @ApiOperation({
    summary: "Start connecting an account through the platform's sign-in: send the user to authorizationUrl, keep verifier (never in a url) to complete it",
  })
  @ApiOkResponse({ type: StartConnectSchema })
  start(@Principal() principal: KeyPrincipal, @Body(bodyValidation) dto: StartConnectDto): Promise<StartConnectReply> {
    const command: StartConnectCommand = { workspaceId: principal.workspaceId, platform: dto.platform, redirectUri: dto.redirectUri, instanceUrl: dto.instanceUrl ?? null };
    return this.commands.request('accounts.connect-start', command);
  }

  /** Where the platform sends the user back: no API key (the signed, single-use state names the sign-in); attaches nothing by itself. */
  @Public()
  @Get('connect/callback')
  @ApiErrors(...OPERATION_ERRORS.connectCallback)
  @ApiOperation({
    summary:
      "The platform's redirect after sign-in; holds what the sign-in gave and redirects (302) to the client's redirectUri with connection_id (complete it with POST /api/v1/accounts/connect/complete), or with error (which cancels nothing)",
  })
  async callback(@Query(platformQueryValidation) query: ConnectCallbackQuery, @Res() reply: FastifyReply): Promise<void> {
    if (!query.state) throw new DomainError('connect_state_invalid', 'the callback has no state');
    const command: ConnectCallbackCommand = { state: query.state, code: query.code ?? null, error: query.error ?? null, errorDescription: query.error_description ?? null };
    const { redirectTo } = await this.commands.request('accounts.connect-callback', command);
    await reply.code(302).header('location', redirectTo).header('cache-control', 'no-store').send();
  }

  @Post('connect/complete')
  @HttpCode(200)
  @RequireScopes('accounts')
  @ApiErrors(...AUTHENTICATED_ERRORS, ...OPERATION_ERRORS.completeConnect)
  @ApiOperation({ summary: "Attach the accounts a sign-in gave: the callback's connection_id with the verifier POST /api/v1/accounts/connect answered (once, within ten minutes)" })
  @ApiOkResponse({ type: ConnectedAccountsSchema })
  complete(@Principal() principal: KeyPrincipal, @Body(bodyValidation) dto: CompleteConnectDto): Promise<ConnectedAccountsReply> {
    const command: CompleteConnectCommand = { workspaceId: principal.workspaceId, connectionId: dto.connectionId, verifier: dto.verifier };
    return this.commands.request('accounts.connect-complete', command);
  }

  @Post()
  @HttpCode(201)
  @RequireScopes('accounts')
  @ApiErrors(...AUTHENTICATED_ERRORS, ...OPERATION_ERRORS.connectWithCredentials)
  @ApiOperation({ summary: 'Connect accounts with credentials obtained elsewhere (checked with the platform first), or a Bluesky app password' })
  @ApiCreatedResponse({ type: ConnectedAccountsSchema })
  connect(@Principal() principal: KeyPrincipal, @Body(bodyValidation) dto: ConnectWithCredentialsDto): Promise<ConnectedAccountsReply> {
    const command: ConnectWithCredentialsCommand = { ...dto, workspaceId: principal.workspaceId };
    return this.commands.request('accounts.connect-credentials', command);
  }

  @Get(':id/boards')
  @RequireScopes('read')
  @ApiErrors(...AUTHENTICATED_ERRORS, ...OPERATION_ERRORS.listBoards)
  @ApiOperation({ summary: "A Pinterest account's boards, read from Pinterest: the ids platformOptions.pinterest.boardId takes" })
  @ApiOkResponse({ type: BoardsSchema })
  boards(@Principal() principal: KeyPrincipal, @Param('id') accountId: string): Promise<BoardsReply> {
    const command: ListBoardsCommand = { workspaceId: principal.workspaceId, accountId };
    return this.commands.request('accounts.list-boards', command);
  }

  @Delete(':id')
  @RequireScopes('accounts')
  @ApiErrors(...AUTHENTICATED_ERRORS, ...OPERATION_ERRORS.disconnectAccount)
  @ApiOperation({ summary: 'Disconnect an account (its token is revoked where the platform offers it)' })
  @ApiOkResponse({ type: AccountSchema })
  disconnect(@Principal() principal: KeyPrincipal, @Param('id') accountId: string): Promise<AccountView> {
    const command: DisconnectAccountCommand = { workspaceId: principal.workspaceId, accountId };
    return this.commands.request('accounts.disconnect', command);
  }
}

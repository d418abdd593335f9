import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, Headers, Inject, Param, ParseUUIDPipe, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AppConfig } from '@app/config';
import { DomainError, PostingScheduleView, QUEUE_HORIZON_DAYS, QueueSlotView, SetPostingScheduleCommand } from '@app/contracts';
import { AccountStore } from '@app/accounts';
import { CommandClient } from '@app/messaging';
import { ProjectionWaiter, QueueViewsReader } from '@app/read-models';
import { KeyPrincipal } from '@app/workspaces';
import { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/scopes.decorator';
import { ApiErrors, AUTHENTICATED_ERRORS } from '../openapi/error-responses';
import { OPERATION_ERRORS } from '../openapi/operation-errors';
import { PostingScheduleEnvelopeSchema, QueueSchema } from '../openapi/schemas/queue.schemas';
import { bodyValidation, queryValidation } from '../validation/validation-pipes';
import { QUEUE_LIST_DEFAULT, QueueQuery } from './queue.query';
import { SetScheduleDto } from './schedule.dto';

const noAccount = () => new DomainError('not_found', 'no such account in this workspace');
const accountId = () => new ParseUUIDPipe({ exceptionFactory: noAccount });

/**
 * Posting queues: an account's weekly schedule (set with the write scope: it decides when posts
 * go out, as scheduling a post does; the accounts scope is for connecting and disconnecting) and
 * the upcoming slots with the posts queued into them.
 */
@ApiTags('queue')
@ApiErrors(...AUTHENTICATED_ERRORS)
@Controller('api/v1')
export class QueueController {
  constructor(
    private readonly commands: CommandClient,
    private readonly queues: QueueViewsReader,
    private readonly accounts: AccountStore,
    @Inject(ProjectionWaiter) private readonly projection: ProjectionWaiter,
    private readonly config: AppConfig,
  ) {}

  @Put('accounts/:id/schedule')
  @RequireScopes('write')
  @ApiOperation({
    summary: "Set an account's posting schedule: weekly slots in a time zone",
    description: 'Replaces the schedule before it. Posts created with queue: true go into the first slot free on every account they target. Posts already queued keep their slots.',
  })
  @ApiParam({ name: 'id', format: 'uuid', description: 'the account id' })
  @ApiOkResponse({ type: PostingScheduleEnvelopeSchema })
  @ApiErrors(...OPERATION_ERRORS.setSchedule)
  async setSchedule(
    @Principal() principal: KeyPrincipal,
    @Param('id', accountId()) id: string,
    @Body(bodyValidation) dto: SetScheduleDto,
    @Headers('x-request-id') requestId: string | undefined,
  ): Promise<{ schedule: PostingScheduleView }> {
    const command: SetPostingScheduleCommand = { workspaceId: principal.workspaceId, accountId: id, timezone: dto.timezone, slots: dto.slots.map(({ day, time }) => ({ day, time })) };
    const reply = await this.commands.request('queues.set-schedule', command, requestId ?? randomUUID());
    await this.projection.waitFor(reply.position, this.config.projectionWaitMs);
    const schedule = await this.queues.schedule(principal.workspaceId, id);
    if (!schedule) throw new DomainError('service_unavailable', 'the schedule was recorded but cannot be read yet; GET it in a moment');
    return { schedule };
  }

  @Get('accounts/:id/schedule')
  @RequireScopes('read')
  @ApiOperation({ summary: "An account's posting schedule", description: 'not_found when the account has none.' })
  @ApiParam({ name: 'id', format: 'uuid', description: 'the account id' })
  @ApiOkResponse({ type: PostingScheduleEnvelopeSchema })
  @ApiErrors(...OPERATION_ERRORS.getSchedule)
  async getSchedule(@Principal() principal: KeyPrincipal, @Param('id', accountId()) id: string): Promise<{ schedule: PostingScheduleView }> {
    const schedule = await this.queues.schedule(principal.workspaceId, id);
    if (!schedule) throw new DomainError('not_found', 'no such account in this workspace, or it has no posting schedule');
    return { schedule };
  }

  @Get('queue')
  @RequireScopes('read')
  @ApiOperation({ summary: "An account's upcoming queue slots, each free or with the post that holds it", description: `At most ${QUEUE_HORIZON_DAYS} days ahead.` })
  @ApiOkResponse({ type: QueueSchema })
  @ApiErrors(...OPERATION_ERRORS.listQueue)
  async list(@Principal() principal: KeyPrincipal, @Query(queryValidation) query: QueueQuery): Promise<{ accountId: string; timezone: string | null; slots: QueueSlotView[] }> {
    const account = await this.accounts.get(query.accountId);
    if (!account || account.workspaceId !== principal.workspaceId) throw noAccount();
    const queue = await this.queues.upcoming(principal.workspaceId, query.accountId, this.config.now(), query.limit ?? QUEUE_LIST_DEFAULT, QUEUE_HORIZON_DAYS);
    return { accountId: query.accountId, ...queue };
  }
}

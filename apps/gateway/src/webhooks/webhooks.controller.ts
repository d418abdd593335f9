import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CreateWebhookCommand,
  DomainError,
  RedeliverWebhookCommand,
  ReplayWebhookCommand,
  ReplayWebhookReply,
  TestWebhookReply,
  UpdateWebhookCommand,
  WebhookEndpointCommand,
  WebhookEndpointView,
  WebhookEndpointWithSecret,
} from '@app/contracts';
import { CommandClient } from '@app/messaging';
import { DeliveryLogPage, deliveryLogPage, toEndpointView, WebhookDeliveryStore, WebhookEndpoint, WebhookEndpointStore } from '@app/webhooks/stores';
import { KeyPrincipal } from '@app/workspaces';
import { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/scopes.decorator';
import { ApiErrors, AUTHENTICATED_ERRORS } from '../openapi/error-responses';
import { OPERATION_ERRORS } from '../openapi/operation-errors';
import {
  ReplayWebhookSchema,
  TestWebhookSchema,
  WebhookDeliveryListSchema,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
} from '../openapi/schemas/webhook.schemas';
import { bodyValidation, queryValidation } from '../validation/validation-pipes';
import { CreateWebhookDto, ListDeliveriesQuery, ReplayWebhookDto, UpdateWebhookDto } from './webhook.dto';

const DEFAULT_DELIVERY_LOG = 50;

/**
 * The workspace's webhook endpoints (key scope `webhooks`): changes go to the
 * webhooks service as commands (it checks the url and the event types, holds the
 * secrets); the endpoints and the delivery log are read from its tables.
 */
@ApiTags('webhooks')
@Controller('api/v1/webhooks')
@RequireScopes('webhooks')
export class WebhooksController {
  constructor(
    private readonly endpoints: WebhookEndpointStore,
    private readonly deliveries: WebhookDeliveryStore,
    private readonly commands: CommandClient,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiErrors(...AUTHENTICATED_ERRORS, ...OPERATION_ERRORS.createWebhook)
  @ApiOperation({ summary: 'Subscribe an endpoint to events; the answer carries its signing secret, shown only here' })
  @ApiCreatedResponse({ type: WebhookEndpointWithSecretSchema })
  create(@Principal() principal: KeyPrincipal, @Body(bodyValidation) dto: CreateWebhookDto): Promise<WebhookEndpointWithSecret> {
    const command: CreateWebhookCommand = { workspaceId: principal.workspaceId, url: dto.url, events: dto.events, description: dto.description ?? null };
    return this.commands.request('webhooks.create', command);
  }

  @Get()
  @ApiErrors(...AUTHENTICATED_ERRORS, ...OPERATION_ERRORS.listWebhooks)
  @ApiOperation({ summary: "The workspace's webhook endpoints (never their secrets)" })
  @ApiOkResponse({ type: WebhookEndpointListSchema })
  async list(@Principal() principal: KeyPrincipal): Promise<{ webhooks: WebhookEndpointView[] }> {
    return { webhooks: (await this.endpoints.list(principal.workspaceId)).map(toEndpointView) };
  }

  @Get(':id')
  @ApiErrors(...AUTHENTICATED_ERRORS, ...OPERATION_ERRORS.getWebhook)
  @ApiOperation({ summary: 'One webhook endpoint' })
  @ApiOkResponse({ type: WebhookEndpointSchema })
  async get(@Principal() principal: KeyPrincipal, @Param('id') id: string): Promise<WebhookEndpointView> {
    return toEndpointView(await this.endpoint(principal, id));
  }

  @Patch(':id')
  @ApiErrors(...AUTHENTICATED_ERRORS, ...OPERATION_ERRORS.updateWebhook)
  @ApiOperation({ summary: 'Change the url, the events, the description, or enable / disable the endpoint' })
  @ApiOkResponse({ type: WebhookEndpointSchema })
  update(@Principal() principal: KeyPrincipal, @Param('id') id: string, @Body(bodyValidation) dto: UpdateWebhookDto): Promise<WebhookEndpointView> {
    const command: UpdateWebhookCommand = { workspaceId: principal.workspaceId, endpointId: id, url: dto.url, events: dto.events, description: dto.description, enabled: dto.enabled };
    return this.commands.request('webhooks.update', command);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiErrors(...AUTHENTICATED_ERRORS, ...OPERATION_ERRORS.deleteWebhook)
  @ApiOperation({ summary: 'Delete the endpoint and its delivery log' })
  @ApiNoContentResponse()
  async delete(@Principal() principal: KeyPrincipal, @Param('id') id: string): Promise<void> {
    await this.commands.request('webhooks.delete', this.addressed(principal, id));
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @ApiErrors(...AUTHENTICATED_ERRORS, ...OPERATION_ERRORS.rotateWebhookSecret)
  @ApiOperation({ summary: 'A new signing secret; deliveries carry a signature by the previous one too for 24 hours' })
  @ApiOkResponse({ type: WebhookEndpointWithSecretSchema })
  rotate(@Principal() principal: KeyPrincipal, @Param('id') id: string): Promise<WebhookEndpointWithSecret> {
    return this.commands.request('webhooks.rotate-secret', this.addressed(principal, id));
  }

  @Post(':id/test')
  @HttpCode(202)
  @ApiErrors(...AUTHENTICATED_ERRORS, ...OPERATION_ERRORS.testWebhook)
  @ApiOperation({ summary: 'Send a webhook.test event, signed and retried like any other' })
  @ApiAcceptedResponse({ type: TestWebhookSchema })
  test(@Principal() principal: KeyPrincipal, @Param('id') id: string): Promise<TestWebhookReply> {
    return this.commands.request('webhooks.test', this.addressed(principal, id));
  }

  @Get(':id/deliveries')
  @ApiErrors(...AUTHENTICATED_ERRORS, ...OPERATION_ERRORS.listWebhookDeliveries)
  @ApiOperation({
    summary: 'The delivery log: status, attempts, last response code and times, newest first, a page at a time',
    description: 'nextCursor, passed back as cursor with the same status filter, reads the next page; null on the last page.',
  })
  @ApiOkResponse({ type: WebhookDeliveryListSchema })
  async deliveryLog(@Principal() principal: KeyPrincipal, @Param('id') id: string, @Query(queryValidation) query: ListDeliveriesQuery): Promise<DeliveryLogPage> {
    const endpoint = await this.endpoint(principal, id);
    return deliveryLogPage(this.deliveries, endpoint.id, { limit: query.limit ?? DEFAULT_DELIVERY_LOG, status: query.status ?? null, cursor: query.cursor ?? null });
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  @HttpCode(202)
  @ApiErrors(...AUTHENTICATED_ERRORS, ...OPERATION_ERRORS.redeliverWebhook)
  @ApiOperation({ summary: 'Send one delivery again now, under the same webhook-id (even if it was delivered)' })
  @ApiAcceptedResponse()
  async redeliver(@Principal() principal: KeyPrincipal, @Param('id') id: string, @Param('deliveryId') deliveryId: string): Promise<void> {
    const command: RedeliverWebhookCommand = { ...this.addressed(principal, id), deliveryId };
    await this.commands.request('webhooks.redeliver', command);
  }

  @Post(':id/replay')
  @HttpCode(202)
  @ApiErrors(...AUTHENTICATED_ERRORS, ...OPERATION_ERRORS.replayWebhook)
  @ApiOperation({ summary: 'Deliver every stored event since a time or after a position: what was delivered is not sent again, what was missed is' })
  @ApiAcceptedResponse({ type: ReplayWebhookSchema })
  replay(@Principal() principal: KeyPrincipal, @Param('id') id: string, @Body(bodyValidation) dto: ReplayWebhookDto): Promise<ReplayWebhookReply> {
    const command: ReplayWebhookCommand = { ...this.addressed(principal, id), since: dto.since ?? null, afterPosition: dto.afterPosition ?? null };
    return this.commands.request('webhooks.replay', command);
  }

  private addressed(principal: KeyPrincipal, endpointId: string): WebhookEndpointCommand {
    return { workspaceId: principal.workspaceId, endpointId };
  }

  private async endpoint(principal: KeyPrincipal, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.endpoints.get(principal.workspaceId, id);
    if (!endpoint) throw new DomainError('not_found', 'no such webhook endpoint in this workspace');
    return endpoint;
  }
}

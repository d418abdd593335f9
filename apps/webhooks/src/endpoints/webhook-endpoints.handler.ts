import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import {
  CreateWebhookCommand,
  DomainError,
  isSubscribableWebhookEventType,
  RedeliverWebhookCommand,
  ReplayWebhookCommand,
  ReplayWebhookReply,
  TestWebhookReply,
  UpdateWebhookCommand,
  WEBHOOK_PAYLOAD_VERSION,
  WebhookEndpointCommand,
  WebhookEndpointView,
  WebhookEndpointWithSecret,
  WebhookEventType,
  WebhookPayload,
} from '@app/contracts';
import { parsePosition } from '@app/event-store';
import {
  generateWebhookSecret,
  RETRY_WINDOW_MS,
  toEndpointView,
  WebhookDeliveryStore,
  WebhookEndpoint,
  WebhookEndpointStore,
  WebhookFanout,
  WebhookTarget,
  webhookDeliveryId,
  WorkspacesWithEndpoints,
} from '@app/webhooks';
import { DeliveriesWorker } from '../delivery/deliveries.worker';

/** The event types of a create or update: known, subscribable, each once (invalid_webhook_events otherwise). */
export function checkedEventTypes(events: readonly string[]): WebhookEventType[] {
  const unknown = events.filter((event) => !isSubscribableWebhookEventType(event));
  if (unknown.length) throw new DomainError('invalid_webhook_events', `unknown event types: ${unknown.join(', ')}`, { details: { unknown } });
  if (events.length === 0) throw new DomainError('invalid_webhook_events', 'events must name at least one event type');
  return [...new Set(events)] as WebhookEventType[];
}

/** Where a replay starts: exactly one of a past time or a position (invalid_replay_start otherwise). */
export function replayStart(command: Pick<ReplayWebhookCommand, 'since' | 'afterPosition'>, now: Date) {
  if ((command.since === null) === (command.afterPosition === null)) throw new DomainError('invalid_replay_start', 'give exactly one of since and afterPosition');
  if (command.afterPosition !== null) {
    try {
      return { afterPosition: parsePosition(command.afterPosition) };
    } catch {
      throw new DomainError('invalid_replay_start', 'afterPosition is not a position ("commit:prepare", as payloads carry it)');
    }
  }
  const since = new Date(command.since as string);
  if (Number.isNaN(since.getTime()) || !/[zZ]|[+-]\d\d:?\d\d$/.test(command.since as string)) {
    throw new DomainError('invalid_replay_start', 'since is not an ISO 8601 time with a zone');
  }
  if (since > now) throw new DomainError('invalid_replay_start', 'since is in the future');
  return { since };
}

/** The webhooks commands: endpoints (create, update, delete, rotate), a test delivery, a redelivery, a replay. */
@Injectable()
export class WebhookEndpointsHandler {
  constructor(
    private readonly config: AppConfig,
    private readonly endpoints: WebhookEndpointStore,
    private readonly deliveries: WebhookDeliveryStore,
    private readonly target: WebhookTarget,
    private readonly fanout: WebhookFanout,
    private readonly worker: DeliveriesWorker,
    private readonly workspaces: WorkspacesWithEndpoints,
  ) {}

  async create(command: CreateWebhookCommand): Promise<WebhookEndpointWithSecret> {
    const url = await this.target.check(command.url);
    const events = checkedEventTypes(command.events);
    const secret = generateWebhookSecret();
    const endpoint = await this.endpoints.create(command.workspaceId, { url, events, description: command.description }, secret, this.config.now());
    // This replica's fan-out knows at once; the others by the store's notification.
    this.workspaces.noteEndpoint(command.workspaceId);
    return { ...toEndpointView(endpoint), secret, previousSecretExpiresAt: null };
  }

  async update(command: UpdateWebhookCommand): Promise<WebhookEndpointView> {
    const { workspaceId, endpointId, ...fields } = command;
    if (Object.values(fields).every((value) => value === undefined)) throw new DomainError('nothing_to_edit', 'give url, events, description or enabled');
    const changes = {
      ...(fields.url !== undefined ? { url: await this.target.check(fields.url) } : {}),
      ...(fields.events !== undefined ? { events: checkedEventTypes(fields.events) } : {}),
      ...(fields.description !== undefined ? { description: fields.description } : {}),
      ...(fields.enabled !== undefined ? { enabled: fields.enabled } : {}),
    };
    const endpoint = await this.endpoints.update(workspaceId, endpointId, changes, this.config.now());
    if (!endpoint) throw notFound();
    this.workspaces.noteEndpoint(workspaceId);
    // Enabled again: what queued up while it was disabled goes out now.
    if (fields.enabled) this.worker.kick();
    return toEndpointView(endpoint);
  }

  async delete(command: WebhookEndpointCommand): Promise<Record<string, never>> {
    if (!(await this.endpoints.delete(command.workspaceId, command.endpointId))) throw notFound();
    return {};
  }

  async rotateSecret(command: WebhookEndpointCommand): Promise<WebhookEndpointWithSecret> {
    const secret = generateWebhookSecret();
    const rotated = await this.endpoints.rotateSecret(command.workspaceId, command.endpointId, secret, this.config.now());
    if (!rotated) throw notFound();
    return { ...toEndpointView(rotated.endpoint), secret, previousSecretExpiresAt: rotated.previousSecretExpiresAt.toISOString() };
  }

  /** A `webhook.test` delivery, signed and retried like any other. */
  async test(command: WebhookEndpointCommand): Promise<TestWebhookReply> {
    const endpoint = await this.enabledEndpoint(command);
    const now = this.config.now();
    const eventId = `webhook.test:${randomUUID()}`;
    const payload: WebhookPayload = {
      type: 'webhook.test',
      timestamp: now.toISOString(),
      version: WEBHOOK_PAYLOAD_VERSION,
      eventId,
      position: null,
      workspaceId: endpoint.workspaceId,
      data: { endpointId: endpoint.id, url: endpoint.url },
    };
    await this.deliveries.queue({ endpointId: endpoint.id, eventId, eventType: 'webhook.test', position: null, payload: JSON.stringify(payload) }, now, this.giveUpAt(now));
    this.worker.kick();
    return { deliveryId: webhookDeliveryId(endpoint.id, eventId) };
  }

  async redeliver(command: RedeliverWebhookCommand): Promise<Record<string, never>> {
    const endpoint = await this.enabledEndpoint(command);
    const now = this.config.now();
    if (!(await this.deliveries.redeliver(endpoint.id, command.deliveryId, now, this.giveUpAt(now)))) throw notFound();
    this.worker.kick();
    return {};
  }

  async replay(command: ReplayWebhookCommand): Promise<ReplayWebhookReply> {
    const start = replayStart(command, this.config.now());
    const endpoint = await this.enabledEndpoint(command);
    const reply = await this.fanout.replay(endpoint, start);
    if (reply.queued) this.worker.kick();
    return reply;
  }

  private async enabledEndpoint(command: WebhookEndpointCommand): Promise<WebhookEndpoint> {
    const endpoint = await this.endpoints.get(command.workspaceId, command.endpointId);
    if (!endpoint) throw notFound();
    if (!endpoint.enabled) throw new DomainError('webhook_endpoint_disabled', `endpoint ${endpoint.id} is disabled (${endpoint.disabledReason}): enable it first`);
    return endpoint;
  }

  private giveUpAt(now: Date): Date {
    return new Date(now.getTime() + RETRY_WINDOW_MS);
  }
}

function notFound(): DomainError {
  return new DomainError('not_found', 'no such webhook endpoint (or delivery) in this workspace');
}

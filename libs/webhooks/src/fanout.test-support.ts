import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { PostgresEventStore, toNewEvents } from '@app/event-store';
import { WebhookDeliveryStore } from './delivery-store';
import { WebhookEndpoint, WebhookEndpointStore } from './endpoint-store';
import { generateWebhookSecret } from './signing';
import { WebhookFanout } from './webhook-fanout';
import { WorkspacesWithEndpoints } from './workspaces-with-endpoints';

/** Stores one AccountConnected (a subscribable event: account.connected) of `workspaceId` in a stream of its own; answers its stream and event id. */
export async function storeAccountConnected(store: PostgresEventStore, workspaceId: string): Promise<{ streamId: string; eventId: string }> {
  const accountId = randomUUID();
  const data = { accountId, workspaceId, platform: 'x', handle: '@h', displayName: 'h', platformAccountId: 'h', instanceUrl: null, scopes: [], tokenExpiresAt: null, reconnected: false };
  const [event] = toNewEvents([{ type: 'AccountConnected', data } as never], { workspaceId, version: 1, requestId: undefined });
  const streamId = `account-${accountId}`;
  await store.append(streamId, [event], 'no_stream');
  return { streamId, eventId: event.eventId };
}

/** An endpoint of `workspaceId` subscribed to account.connected. */
export function createAccountEndpoint(endpoints: WebhookEndpointStore, workspaceId: string, now: Date): Promise<WebhookEndpoint> {
  return endpoints.create(workspaceId, { url: 'https://hooks.example.com/in', events: ['account.connected'], description: null }, generateWebhookSecret(), now);
}

/**
 * The live fan-out wired as the webhooks service wires it (DeliveriesWorker): the workspaces with
 * endpoints known in memory and listened for, and the events skipped lately taken again for a
 * workspace that gains one. Started; stop() ends the listening.
 */
export async function liveFanout(
  database: { pool: Pool; url: string },
  parts: { endpoints: WebhookEndpointStore; deliveries: WebhookDeliveryStore; store: PostgresEventStore; now: Date },
): Promise<{ fanout: WebhookFanout; workspaces: WorkspacesWithEndpoints }> {
  const workspaces = new WorkspacesWithEndpoints(database.pool, database.url);
  const fanout = new WebhookFanout(parts.endpoints, parts.deliveries, parts.store, () => parts.now, workspaces);
  workspaces.onAdded((workspaceId) => void fanout.takeSkipped(workspaceId));
  await workspaces.start();
  return { fanout, workspaces };
}

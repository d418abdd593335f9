/**
 * Webhooks for API clients: the event types an endpoint subscribes to, the payload
 * every delivery carries, the endpoint as the API shows it, and the commands the
 * gateway sends the webhooks service. Payloads follow the Standard Webhooks shape
 * ({type, timestamp, data}) and carry their schema version; they are derived from
 * the stored events, so a replay sends the same payload again.
 */
export const WEBHOOK_EVENT_TYPES = [
  'post.scheduled',
  'post.published',
  'post.partial',
  'post.failed',
  'post.deleted',
  'post.account.published',
  'post.account.failed',
  'post.approval_requested',
  'post.approved',
  'post.rejected',
  'account.connected',
  'account.reauth_required',
  'account.disconnected',
  'comment.received',
  'comment.replied',
  'comment.hidden',
  'comment.unhidden',
  'comment.reply_deleted',
  'comment.reclassified',
  // Opt-in like every type (an endpoint gets only what its events list names): chatty, so never add it by default.
  'post.metrics_updated',
  'webhook.disabled',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What an endpoint may subscribe to: every type but the webhook.disabled notice, which every enabled endpoint gets. */
export const SUBSCRIBABLE_WEBHOOK_EVENT_TYPES = WEBHOOK_EVENT_TYPES.filter((type) => type !== 'webhook.disabled');

/** Longest endpoint url the API takes (the gateway's request schema and the webhooks lib's check share it). */
export const MAX_WEBHOOK_URL_CHARS = 2048;

/** Schema version of every payload's data: bumped (and documented) when a field changes meaning or goes away. */
export const WEBHOOK_PAYLOAD_VERSION = 1;

export function isSubscribableWebhookEventType(value: unknown): value is WebhookEventType {
  return typeof value === 'string' && (SUBSCRIBABLE_WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/** The JSON body of a delivery. */
export interface WebhookPayload<T = unknown> {
  type: WebhookEventType | 'webhook.test';
  /** When the event happened (the stored event's time), ISO 8601. */
  timestamp: string;
  version: number;
  /** The stored event's id (replays and retries carry the same), and its global position ("commit:prepare"; null for notices). */
  eventId: string;
  position: string | null;
  workspaceId: string;
  data: T;
}

/** An endpoint as the API answers it; the secret only in the create and rotate answers. */
export interface WebhookEndpointView {
  id: string;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  enabled: boolean;
  /** Why it is disabled: `gone` (it answered 410), `failing` (five days of failed deliveries), `client` (disabled through the API). */
  disabledReason: 'gone' | 'failing' | 'client' | null;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookEndpointWithSecret extends WebhookEndpointView {
  /** whsec_<base64>: shown once. The previous one keeps verifying until previousSecretExpiresAt. */
  secret: string;
  previousSecretExpiresAt: string | null;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One entry of GET /api/v1/webhooks/:id/deliveries. */
export interface WebhookDeliveryView {
  /** The webhook-id header: the same on every attempt of this event to this endpoint. */
  id: string;
  eventType: string;
  eventId: string;
  position: string | null;
  status: WebhookDeliveryStatus;
  attempts: number;
  /** The last attempt's HTTP status, null when it got none (timeout, refused connection). */
  responseStatus: number | null;
  lastError: string | null;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
}

/** webhooks.create */
export interface CreateWebhookCommand {
  workspaceId: string;
  url: string;
  events: string[];
  description: string | null;
}

/** webhooks.update: the fields given replace the endpoint's. */
export interface UpdateWebhookCommand {
  workspaceId: string;
  endpointId: string;
  url?: string;
  events?: string[];
  description?: string | null;
  enabled?: boolean;
}

/** webhooks.delete, webhooks.rotate-secret, webhooks.test */
export interface WebhookEndpointCommand {
  workspaceId: string;
  endpointId: string;
}

/** webhooks.redeliver: send one delivery again now (whatever its status), under its id. */
export interface RedeliverWebhookCommand extends WebhookEndpointCommand {
  deliveryId: string;
}

/** webhooks.replay: every stored event after `afterPosition`, or since `since`, to this endpoint. */
export interface ReplayWebhookCommand extends WebhookEndpointCommand {
  since: string | null;
  afterPosition: string | null;
}

export interface ReplayWebhookReply {
  /** Deliveries queued (new ones, and earlier ones not delivered, queued again). */
  queued: number;
  /** Events matched that were already delivered under their id: not sent twice. */
  alreadyDelivered: number;
  /** The position of the last stored event looked at: pass it as afterPosition next time. */
  lastPosition: string | null;
}

export interface TestWebhookReply {
  deliveryId: string;
}

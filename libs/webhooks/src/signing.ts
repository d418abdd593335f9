import { createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com/; github.com/standard-webhooks/standard-webhooks,
 * spec/standard-webhooks.md, "Signature scheme" and "Webhook headers"):
 * the secret is `whsec_` + base64 of 24 to 64 random bytes; the signature is
 * `v1,` + base64(HMAC-SHA256(secret bytes, `${webhook-id}.${webhook-timestamp}.${body}`)),
 * several space-separated while a rotated secret is still valid. The `standardwebhooks`
 * library verifies exactly this (tests use it as a receiver would).
 */
const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

function secretKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('a webhook secret starts with whsec_');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

/** One `v1,<base64>` signature per secret (the current first), space-separated as the webhook-signature header carries them. */
export function signWebhook(secrets: readonly string[], id: string, timestampSeconds: number, body: string): string {
  return secrets
    .map((secret) => `v1,${createHmac('sha256', secretKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`)
    .join(' ');
}

/**
 * The webhook-id of one event to one endpoint: derived from both, so every retry,
 * manual redelivery and replay of that event to that endpoint carries the same id
 * (receivers deduplicate on it), and two endpoints never share one.
 */
export function webhookDeliveryId(endpointId: string, eventId: string): string {
  return `msg_${createHash('sha256').update(`${endpointId}\n${eventId}`).digest('base64url').slice(0, 27)}`;
}

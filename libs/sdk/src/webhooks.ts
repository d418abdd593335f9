import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { webhooks } from './generated/openapi';

/** Every event the API delivers to a webhook endpoint, as the OpenAPI document's `webhooks` describe them. */
export type WebhookEvent = { [K in keyof webhooks]: NonNullable<webhooks[K]['post']>['requestBody']['content']['application/json'] }[keyof webhooks];
export type WebhookEventType = WebhookEvent['type'];

export { WebhookVerificationError };

/** Headers as Node's IncomingMessage has them, or a fetch Headers. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/**
 * Verifies a delivery as the Standard Webhooks scheme says (the API signs with
 * it: webhook-id, webhook-timestamp, webhook-signature, `v1,` HMAC-SHA256 with
 * the endpoint's `whsec_` secret; the timestamp must be within five minutes)
 * and returns its event. `body` is the raw body as received (not re-serialised
 * JSON: a byte changed breaks the signature). Give several secrets while you
 * rotate (the API signs with the old and the new for 24 hours).
 * Throws WebhookVerificationError when no secret verifies it.
 */
export function verifyWebhook(secrets: string | readonly string[], body: string | Buffer, headers: WebhookHeaders): WebhookEvent {
  const wanted = { 'webhook-id': header(headers, 'webhook-id'), 'webhook-timestamp': header(headers, 'webhook-timestamp'), 'webhook-signature': header(headers, 'webhook-signature') };
  let failure: unknown = new WebhookVerificationError('no secret given');
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    try {
      return new Webhook(secret).verify(body, wanted) as WebhookEvent;
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
}

function header(headers: WebhookHeaders, name: string): string {
  const value = headers instanceof Headers ? headers.get(name) : headers[name] ?? headers[name.toLowerCase()];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

import { ApiProperty } from '@nestjs/swagger';
import { SUBSCRIBABLE_WEBHOOK_EVENT_TYPES } from '@app/contracts';
import { NextCursorProperty } from './list-page.schema';

/** A webhook endpoint as the API shows it. */
export class WebhookEndpointSchema {
  @ApiProperty({ description: 'whep_…' }) id!: string;
  @ApiProperty() url!: string;
  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...SUBSCRIBABLE_WEBHOOK_EVENT_TYPES] } }) events!: string[];
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty() enabled!: boolean;
  // OpenAPI 3.0.3: nullable does not reach past enum, so null is one of the values.
  @ApiProperty({ type: String, nullable: true, enum: ['gone', 'failing', 'client', null] as string[], description: 'gone: it answered 410; failing: every attempt failed for five days; client: disabled through the API' })
  disabledReason!: string | null;
  @ApiProperty({ type: 'string', format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: 'string', format: 'date-time' }) updatedAt!: string;
}

export class WebhookEndpointWithSecretSchema extends WebhookEndpointSchema {
  @ApiProperty({ description: 'whsec_<base64>: the signing secret, shown only here. Verify with any Standard Webhooks library.' }) secret!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'after a rotation: until when deliveries also carry a signature by the previous secret' })
  previousSecretExpiresAt!: string | null;
}

export class WebhookEndpointListSchema {
  @ApiProperty({ type: [WebhookEndpointSchema] }) webhooks!: WebhookEndpointSchema[];
}

export class WebhookDeliverySchema {
  @ApiProperty({ description: 'the webhook-id header: the same on every attempt, redelivery and replay of this event to this endpoint' }) id!: string;
  @ApiProperty() eventType!: string;
  @ApiProperty({ description: 'the stored event it came from (synthetic for webhook.test and webhook.disabled)' }) eventId!: string;
  @ApiProperty({ type: String, nullable: true, description: 'the event\'s position in the event store ("commit:prepare"), for replay afterPosition' }) position!: string | null;
  @ApiProperty({ enum: ['pending', 'delivered', 'failed'], description: 'pending: queued or waiting for a retry; failed: gave up (three days, or 410)' }) status!: string;
  @ApiProperty() attempts!: number;
  @ApiProperty({ type: Number, nullable: true, description: "the last attempt's HTTP status; null when none came (timeout, refused connection)" }) responseStatus!: number | null;
  @ApiProperty({ type: String, nullable: true }) lastError!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastAttemptAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) nextAttemptAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) deliveredAt!: string | null;
  @ApiProperty({ type: 'string', format: 'date-time' }) createdAt!: string;
}

export class WebhookDeliveryListSchema {
  @ApiProperty({ type: [WebhookDeliverySchema], description: 'newest first' }) deliveries!: WebhookDeliverySchema[];
  @NextCursorProperty() nextCursor!: string | null;
}

export class TestWebhookSchema {
  @ApiProperty({ description: 'the delivery of the webhook.test event, to follow in the delivery log' }) deliveryId!: string;
}

export class ReplayWebhookSchema {
  @ApiProperty({ description: 'deliveries queued: new ones, and failed ones queued again' }) queued!: number;
  @ApiProperty({ description: 'events already delivered under their webhook-id: not sent again' }) alreadyDelivered!: number;
  @ApiProperty({ type: String, nullable: true, description: 'the last stored event looked at: the next replay\'s afterPosition' }) lastPosition!: string | null;
}

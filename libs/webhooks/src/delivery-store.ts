import { Pool } from 'pg';
import { WebhookDeliveryStatus, WebhookDeliveryView } from '@app/contracts';
import { webhookDeliveryId } from './signing';

export interface WebhookDelivery extends WebhookDeliveryView {
  endpointId: string;
  payload: string;
  giveUpAt: Date;
  /** Queue order (a bigint as text): where a page of the delivery log ends. */
  seq: string;
}

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  position: string | null;
  payload: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  response_status: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  give_up_at: Date;
  created_at: Date;
  seq: string;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event_type,
    position: row.position,
    payload: row.payload,
    status: row.status,
    attempts: row.attempts,
    responseStatus: row.response_status,
    lastError: row.last_error,
    lastAttemptAt: iso(row.last_attempt_at),
    nextAttemptAt: row.status === 'pending' ? iso(row.next_attempt_at) : null,
    deliveredAt: iso(row.delivered_at),
    giveUpAt: row.give_up_at,
    createdAt: row.created_at.toISOString(),
    seq: row.seq,
  };
}

export function toDeliveryView(delivery: WebhookDelivery): WebhookDeliveryView {
  const { endpointId: _endpoint, payload: _payload, giveUpAt: _giveUp, seq: _seq, ...view } = delivery;
  return view;
}

/** One event for one endpoint, to queue. */
export interface NewDelivery {
  endpointId: string;
  eventId: string;
  eventType: string;
  position: string | null;
  payload: string;
}

/** What queueing found: a new delivery, a failed one queued again, or one already pending or delivered (left alone). */
export type QueueOutcome = 'queued' | 'requeued' | 'pending' | 'delivered';

/**
 * Deliveries in PostgreSQL: one row per (endpoint, event), whose id is the
 * webhook-id. Queueing the same event twice (a feed batch replayed after a crash, a replay)
 * finds the row instead of making another.
 */
export class WebhookDeliveryStore {
  constructor(private readonly pool: Pool) {}

  /**
   * Queues a delivery due now, unless there is one for this event already. With
   * `requeueFailed` (a replay), a delivery that failed for good is queued again
   * with a new retry window; a delivered one is never sent again under its id.
   */
  async queue(delivery: NewDelivery, now: Date, giveUpAt: Date, requeueFailed = false): Promise<QueueOutcome> {
    const id = webhookDeliveryId(delivery.endpointId, delivery.eventId);
    const { rows } = await this.pool.query<{ status: WebhookDeliveryStatus; inserted: boolean; requeued: boolean }>(
      `WITH inserted AS (
         INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, position, payload, status, next_attempt_at, give_up_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, $8, $7)
         ON CONFLICT (endpoint_id, event_id) DO NOTHING RETURNING status),
       requeued AS (
         UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $7, give_up_at = $8
         WHERE $9 AND id = $1 AND status = 'failed' AND NOT EXISTS (SELECT 1 FROM inserted) RETURNING status)
       SELECT status, true AS inserted, false AS requeued FROM inserted
       UNION ALL SELECT status, false, true FROM requeued
       UNION ALL SELECT status, false, false FROM webhook_deliveries WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM inserted) AND NOT EXISTS (SELECT 1 FROM requeued)`,
      [id, delivery.endpointId, delivery.eventId, delivery.eventType, delivery.position, delivery.payload, now, giveUpAt, requeueFailed],
    );
    const row = rows[0];
    if (row.inserted) return 'queued';
    if (row.requeued) return 'requeued';
    return row.status === 'delivered' ? 'delivered' : 'pending';
  }

  /** The endpoint's oldest due delivery (queue order: per endpoint, events go out in the order they were taken in). */
  async nextDue(endpointId: string, now: Date): Promise<WebhookDelivery | null> {
    const { rows } = await this.pool.query<DeliveryRow>(
      `SELECT * FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'pending' AND next_attempt_at <= $2 ORDER BY seq LIMIT 1`,
      [endpointId, now],
    );
    return rows[0] ? toDelivery(rows[0]) : null;
  }

  async recordDelivered(id: string, responseStatus: number, at: Date): Promise<void> {
    await this.pool.query(
      `UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1, last_attempt_at = $2, response_status = $3, last_error = NULL, delivered_at = $2, next_attempt_at = NULL WHERE id = $1`,
      [id, at, responseStatus],
    );
  }

  /** A failed attempt: pending again at `nextAttemptAt`, or failed for good when it is null. */
  async recordFailed(id: string, result: { responseStatus: number | null; error: string | null }, at: Date, nextAttemptAt: Date | null): Promise<void> {
    await this.pool.query(
      `UPDATE webhook_deliveries SET status = $5, attempts = attempts + 1, last_attempt_at = $2, response_status = $3, last_error = $4, next_attempt_at = $6 WHERE id = $1`,
      [id, at, result.responseStatus, result.error, nextAttemptAt ? 'pending' : 'failed', nextAttemptAt],
    );
  }

  /** The newest `limit` deliveries (by queue order), optionally of one status, and only those queued before `beforeSeq` when given (see delivery-log-page.ts). */
  async list(endpointId: string, limit: number, status: WebhookDeliveryStatus | null, beforeSeq: string | null = null): Promise<WebhookDelivery[]> {
    const { rows } = await this.pool.query<DeliveryRow>(
      `SELECT * FROM webhook_deliveries WHERE endpoint_id = $1 AND ($2::text IS NULL OR status = $2) AND ($4::bigint IS NULL OR seq < $4::bigint)
       ORDER BY seq DESC LIMIT $3`,
      [endpointId, status, limit, beforeSeq],
    );
    return rows.map(toDelivery);
  }

  async get(endpointId: string, id: string): Promise<WebhookDelivery | null> {
    const { rows } = await this.pool.query<DeliveryRow>('SELECT * FROM webhook_deliveries WHERE endpoint_id = $1 AND id = $2', [endpointId, id]);
    return rows[0] ? toDelivery(rows[0]) : null;
  }

  /** A manual redelivery: due now under the same id, whatever its status, with a new retry window. */
  async redeliver(endpointId: string, id: string, now: Date, giveUpAt: Date): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $3, give_up_at = $4 WHERE endpoint_id = $1 AND id = $2`,
      [endpointId, id, now, giveUpAt],
    );
    return (rowCount ?? 0) > 0;
  }
}

import { WebhookDeliveryStatus, WebhookDeliveryView } from '@app/contracts';
import { cursorNotIssuedHere, decodeCursorPayload, encodeCursorPayload, refusedCursor } from '@app/read-models/list-cursor';
import { toDeliveryView, WebhookDeliveryStore } from './delivery-store';

/**
 * A page of an endpoint's delivery log, newest first, with the cursor of the page after it,
 * by the lists' conventions and codec (libs/read-models/src/list-cursor.ts: `cursor`, `limit`,
 * `nextCursor`; opaque base64url, bound to what it was issued for, refused with
 * `invalid_query` otherwise). A page ends at its last delivery's queue order (`seq`, which
 * never changes): the next page is every delivery queued before it, so deliveries queued
 * meanwhile never shift a page — nothing skipped, nothing repeated. Standard Webhooks
 * ("Visibility into failures and manual retries") asks for a way to list failed messages.
 */
export interface DeliveryLogPage {
  deliveries: WebhookDeliveryView[];
  nextCursor: string | null;
}

interface CursorPayload {
  endpointId: string;
  status: WebhookDeliveryStatus | null;
  beforeSeq: string;
}

const SEQ = /^\d{1,19}$/;

/** The seq a cursor continues before; refused when this API did not issue it for this endpoint and status. */
function decodeCursor(cursor: string, endpointId: string, status: WebhookDeliveryStatus | null): string {
  const payload = decodeCursorPayload(cursor) as Partial<CursorPayload> | null;
  if (!payload || typeof payload.beforeSeq !== 'string' || !SEQ.test(payload.beforeSeq) || typeof payload.endpointId !== 'string') throw cursorNotIssuedHere();
  if (payload.endpointId !== endpointId) throw refusedCursor('cursor was issued for the delivery log of another endpoint');
  if ((payload.status ?? null) !== status) {
    throw refusedCursor(
      `cursor was issued for ${payload.status ? `status=${payload.status}` : 'no filter'}, not ${status ? `status=${status}` : 'no filter'}: keep the filters of the first page`,
    );
  }
  return payload.beforeSeq;
}

export async function deliveryLogPage(
  store: WebhookDeliveryStore,
  endpointId: string,
  query: { limit: number; status: WebhookDeliveryStatus | null; cursor: string | null },
): Promise<DeliveryLogPage> {
  const beforeSeq = query.cursor === null ? null : decodeCursor(query.cursor, endpointId, query.status);
  // One more than the page: the extra row only says another page exists.
  const rows = await store.list(endpointId, query.limit + 1, query.status, beforeSeq);
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  const nextCursor = rows.length > query.limit && last ? encodeCursorPayload({ endpointId, status: query.status, beforeSeq: last.seq } satisfies CursorPayload) : null;
  return { deliveries: page.map(toDeliveryView), nextCursor };
}

import { PoolClient } from 'pg';
import { QueueEvent } from '@app/contracts';
import { RecordedEvent } from '@app/event-store';
import { Tables } from '../read-model';

/** The posting queues' tables: one row per account queue (its schedule), and the slots queued posts hold. */
export type QueueViewsTables = Tables<'accountQueues' | 'queueClaims'>;

/**
 * Folds the queue-<accountId> streams into account_queues and queue_claims. Each event is
 * applied once: the queue's row keeps the revision of its last applied event, and an event at
 * or below it (a batch delivered again) changes nothing.
 */
export async function projectQueueEvents(client: PoolClient, events: RecordedEvent[], tables: QueueViewsTables): Promise<void> {
  for (const recorded of events) {
    if (!recorded.streamId.startsWith('queue-')) continue;
    const event = { type: recorded.type, data: recorded.data } as QueueEvent;
    const { accountId, workspaceId } = event.data;
    // The queue's row moves to this revision only if it is past it: a replay updates no row and is skipped.
    const { rowCount } = await client.query(
      `INSERT INTO ${tables.accountQueues} (account_id, workspace_id, revision) VALUES ($1, $2, $3)
       ON CONFLICT (account_id) DO UPDATE SET revision = EXCLUDED.revision WHERE ${tables.accountQueues}.revision < EXCLUDED.revision`,
      [accountId, workspaceId, recorded.revision.toString()],
    );
    if (rowCount === 0) continue;
    switch (event.type) {
      case 'PostingScheduleSet':
        await client.query(`UPDATE ${tables.accountQueues} SET timezone = $2, slots = $3, schedule_updated_at = $4 WHERE account_id = $1`, [
          accountId,
          event.data.timezone,
          JSON.stringify(event.data.slots),
          event.data.setAt,
        ]);
        break;
      case 'QueueSlotClaimed':
        await client.query(
          `INSERT INTO ${tables.queueClaims} (account_id, slot_at, post_id, workspace_id) VALUES ($1, $2, $3, $4)
           ON CONFLICT (account_id, slot_at) DO UPDATE SET post_id = EXCLUDED.post_id`,
          [accountId, event.data.slotAt, event.data.postId, workspaceId],
        );
        break;
      case 'QueueSlotReleased':
        await client.query(`DELETE FROM ${tables.queueClaims} WHERE account_id = $1 AND slot_at = $2 AND post_id = $3`, [accountId, event.data.slotAt, event.data.postId]);
        break;
      default: {
        const unknown: never = event;
        throw new Error(`unknown queue event ${JSON.stringify(unknown)}`);
      }
    }
  }
}

import { Pool, PoolClient } from 'pg';
import { formatPosition, GlobalPosition, parsePosition, START } from '@app/contracts';

/** Durable positions of feed followers, in the checkpoints table. */
export class CheckpointStore {
  constructor(private readonly pool: Pool) {}

  async load(name: string): Promise<GlobalPosition> {
    const { rows } = await this.pool.query<{ position: string }>('SELECT position FROM checkpoints WHERE name = $1', [name]);
    return rows[0] ? parsePosition(rows[0].position) : START;
  }

  /**
   * Saves inside the caller's transaction when given one, so state and checkpoint commit together.
   * `notify` (a channel and payload) is sent in the same statement: delivered when it commits.
   */
  async save(name: string, position: GlobalPosition, client: Pool | PoolClient = this.pool, notify?: { channel: string; payload: string }): Promise<void> {
    if (!notify) {
      await client.query(
        `INSERT INTO checkpoints (name, position) VALUES ($1, $2)
         ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position, updated_at = now()`,
        [name, formatPosition(position)],
      );
      return;
    }
    await client.query(
      `WITH saved AS (
         INSERT INTO checkpoints (name, position) VALUES ($1, $2)
         ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position, updated_at = now() RETURNING 1)
       SELECT pg_notify($3, $4) FROM saved`,
      [name, formatPosition(position), notify.channel, notify.payload],
    );
  }
}

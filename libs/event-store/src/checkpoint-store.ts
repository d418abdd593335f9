import { Pool, PoolClient } from 'pg';
import { formatPosition, GlobalPosition, parsePosition, START } from '@app/contracts';

/** Durable positions of feed followers, in the checkpoints table. */
export class CheckpointStore {
  constructor(private readonly pool: Pool) {}

  async load(name: string): Promise<GlobalPosition> {
    const { rows } = await this.pool.query<{ position: string }>('SELECT position FROM checkpoints WHERE name = $1', [name]);
    return rows[0] ? parsePosition(rows[0].position) : START;
  }

  /** Saves inside the caller's transaction when given one, so state and checkpoint commit together. */
  async save(name: string, position: GlobalPosition, client: Pool | PoolClient = this.pool): Promise<void> {
    await client.query(
      `INSERT INTO checkpoints (name, position) VALUES ($1, $2)
       ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position, updated_at = now()`,
      [name, formatPosition(position)],
    );
  }
}

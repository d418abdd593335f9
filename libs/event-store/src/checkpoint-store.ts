import { Pool, PoolClient } from 'pg';
import { formatPosition, GlobalPosition, parsePosition, START } from '@app/contracts';
import { prepared, type Statement } from '@app/database';

/** One checkpoint to save, and the notification (a channel and payload) to send with it, if any. */
export interface CheckpointSave {
  name: string;
  position: GlobalPosition;
  notify?: { channel: string; payload: string };
}

/** Durable positions of feed followers, in the checkpoints table. */
export class CheckpointStore {
  constructor(private readonly pool: Pool) {}

  async load(name: string): Promise<GlobalPosition> {
    return (await this.loadAll([name])).get(name) ?? START;
  }

  /** Each name's checkpoint (START for one never saved), read in one statement. */
  async loadAll(names: string[]): Promise<Map<string, GlobalPosition>> {
    const { rows } = await this.pool.query<{ name: string; position: string }>('SELECT name, position FROM checkpoints WHERE name = ANY($1::text[])', [names]);
    const saved = new Map(rows.map((row) => [row.name, parsePosition(row.position)]));
    return new Map(names.map((name) => [name, saved.get(name) ?? START]));
  }

  /**
   * Saves inside the caller's transaction when given one, so state and checkpoint commit together.
   * `notify` (a channel and payload) is sent in the same statement: delivered when it commits.
   */
  save(name: string, position: GlobalPosition, client: Pool | PoolClient = this.pool, notify?: { channel: string; payload: string }): Promise<void> {
    return this.saveAll([{ name, position, notify }], client);
  }

  /**
   * Saves several checkpoints (names distinct) and sends their notifications in one statement: a
   * follower that keeps several checkpoints pays one round trip for all of them, not one each.
   */
  async saveAll(saves: CheckpointSave[], client: Pool | PoolClient = this.pool): Promise<void> {
    if (saves.length === 0) return;
    const { text, values } = saveAllStatement(saves);
    await client.query(prepared(text, values));
  }
}

/** saveAll's one statement, for a caller that sends it together with writes of its own (oneStatement). */
export function saveAllStatement(saves: CheckpointSave[]): Statement {
  return {
    text: `WITH given AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS given(name, position, channel, payload)),
       saved AS (
         INSERT INTO checkpoints (name, position) SELECT name, position FROM given
         ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position, updated_at = now() RETURNING name)
       SELECT pg_notify(given.channel, given.payload) FROM given JOIN saved USING (name) WHERE given.channel IS NOT NULL`,
    values: [
      saves.map((save) => save.name),
      saves.map((save) => formatPosition(save.position)),
      saves.map((save) => save.notify?.channel ?? null),
      saves.map((save) => save.notify?.payload ?? null),
    ],
  };
}

import { Client, Notification } from 'pg';
import { formatPosition, START } from '@app/contracts';
import { createTestDatabase, TestDatabase, until } from '@app/testing';
import { CheckpointStore } from './checkpoint-store';

/** Several checkpoints saved, and announced, in one statement: on the real server. */
describe('CheckpointStore', () => {
  let db: TestDatabase;
  let checkpoints: CheckpointStore;
  let listener: Client;
  const heard: string[] = [];
  const at = (commit: bigint) => ({ commit, prepare: commit });

  beforeAll(async () => {
    db = await createTestDatabase();
    checkpoints = new CheckpointStore(db.pool);
    listener = new Client({ connectionString: db.url });
    await listener.connect();
    listener.on('notification', (message: Notification) => heard.push(`${message.channel}/${message.payload}`));
    await listener.query('LISTEN advanced');
  });
  afterAll(async () => {
    await listener?.end();
    await db?.drop();
  });

  it('loads START for a checkpoint never saved, beside the saved ones', async () => {
    await checkpoints.save('loaded', at(5n));
    const loaded = await checkpoints.loadAll(['never', 'loaded']);
    expect([...loaded].map(([name, position]) => [name, formatPosition(position)])).toEqual([
      ['never', formatPosition(START)],
      ['loaded', '5:5'],
    ]);
  });

  it('saves several checkpoints and sends each one’s notification, only when the transaction commits', async () => {
    await checkpoints.save('b', at(1n));
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await checkpoints.saveAll(
        [
          { name: 'a', position: at(7n), notify: { channel: 'advanced', payload: 'a 7:7' } },
          { name: 'b', position: at(7n), notify: { channel: 'advanced', payload: 'b 7:7' } },
          { name: 'c', position: at(7n) },
        ],
        client,
      );
      await client.query('ROLLBACK');
      await client.query('BEGIN');
      await checkpoints.saveAll([{ name: 'a', position: at(8n), notify: { channel: 'advanced', payload: 'a 8:8' } }, { name: 'b', position: at(9n), notify: { channel: 'advanced', payload: 'b 9:9' } }], client);
      expect(heard).toEqual([]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    await until(() => heard.length === 2);
    expect(heard).toEqual(['advanced/a 8:8', 'advanced/b 9:9']);
    const saved = await checkpoints.loadAll(['a', 'b', 'c']);
    expect([...saved.values()].map(formatPosition)).toEqual(['8:8', '9:9', formatPosition(START)]);
  });
});

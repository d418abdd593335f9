import { createTestDatabase, TestDatabase } from '@app/testing';
import { prepared } from './prepared';

/** Named prepared statements on the real server: parsed once per connection, and following a table swap. */
describe('prepared', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
    await db.pool.query('CREATE TABLE prepared_views (id int PRIMARY KEY, label text NOT NULL)');
    await db.pool.query("INSERT INTO prepared_views VALUES (1, 'live')");
  });
  afterAll(() => db?.drop());

  it('names a text the same way every time, and two texts apart', () => {
    const text = 'SELECT label FROM prepared_views WHERE id = $1';
    expect(prepared(text, [1]).name).toBe(prepared(text, [2]).name);
    expect(prepared(text, [1]).name).not.toBe(prepared(`${text} AND label <> ''`, [1]).name);
    expect(prepared(text, [1])).toMatchObject({ text, values: [1] });
  });

  it('is parsed once on a connection, then run from the statement the server keeps', async () => {
    const client = await db.pool.connect();
    try {
      const read = (id: number) => client.query<{ label: string }>(prepared('SELECT label FROM prepared_views WHERE id = $1', [id]));
      expect((await read(1)).rows).toEqual([{ label: 'live' }]);
      expect((await read(2)).rows).toEqual([]);
      const { rows } = await client.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements');
      expect(rows).toEqual([{ statement: 'SELECT label FROM prepared_views WHERE id = $1' }]);
    } finally {
      client.release();
    }
  });

  it('reads the table that holds the name now, after a swap by renames (a rebuild switching tables)', async () => {
    const client = await db.pool.connect();
    try {
      const read = () => client.query<{ label: string }>(prepared('SELECT label FROM prepared_views WHERE id = $1 ORDER BY label', [1]));
      expect((await read()).rows).toEqual([{ label: 'live' }]);
      await db.pool.query(`CREATE TABLE prepared_views_rebuilt (id int PRIMARY KEY, label text NOT NULL);
        INSERT INTO prepared_views_rebuilt VALUES (1, 'rebuilt');
        ALTER TABLE prepared_views RENAME TO prepared_views_old;
        ALTER TABLE prepared_views_rebuilt RENAME TO prepared_views`);
      expect((await read()).rows).toEqual([{ label: 'rebuilt' }]);
    } finally {
      client.release();
    }
  });
});

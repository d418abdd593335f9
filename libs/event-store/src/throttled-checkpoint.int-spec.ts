import { formatPosition, GlobalPosition, START } from '@app/contracts';
import { createTestDatabase, TestDatabase, until } from '@app/testing';
import { CheckpointStore } from './checkpoint-store';
import { ThrottledCheckpoint } from './throttled-checkpoint';

/** A checkpoint saved at most once per interval, on the real server: what is stored, and when. */
describe('ThrottledCheckpoint', () => {
  const EVERY_MS = 300;
  let db: TestDatabase;
  let checkpoints: CheckpointStore;
  const at = (n: bigint): GlobalPosition => ({ commit: n, prepare: n });
  const stored = async (name: string) => formatPosition(await checkpoints.load(name));

  beforeAll(async () => {
    db = await createTestDatabase();
    checkpoints = new CheckpointStore(db.pool);
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('saves the first advance at once, the later ones of the interval once at its end, the last position winning', async () => {
    const late: unknown[] = [];
    const checkpoint = new ThrottledCheckpoint(checkpoints, 'burst', EVERY_MS, (error) => late.push(error));
    await checkpoint.advance(at(1n));
    expect(await stored('burst')).toBe('1:1');

    await checkpoint.advance(at(2n));
    await checkpoint.advance(at(4n));
    // A position behind the pending one (a batch replayed after a restart) never moves it back.
    await checkpoint.advance(at(3n));
    expect(await stored('burst')).toBe('1:1');
    await until(async () => (await stored('burst')) === '4:4', 5 * EVERY_MS);
    expect(late).toEqual([]);
  });

  it('flush saves the pending position now, and a flush with nothing pending saves nothing', async () => {
    const checkpoint = new ThrottledCheckpoint(checkpoints, 'flushed', 60_000, () => undefined);
    await checkpoint.advance(at(1n));
    await checkpoint.advance(at(2n));
    expect(await stored('flushed')).toBe('1:1');
    await checkpoint.flush();
    expect(await stored('flushed')).toBe('2:2');

    await checkpoints.save('flushed', at(7n));
    await checkpoint.flush();
    expect(await stored('flushed')).toBe('7:7');
  });

  it('keeps a position whose save failed, and saves it with the next flush', async () => {
    const checkpoint = new ThrottledCheckpoint(checkpoints, 'failed', 60_000, () => undefined);
    expect(await stored('failed')).toBe(formatPosition(START));
    // The table gone for a moment: the save fails on the server.
    await db.pool.query('ALTER TABLE checkpoints RENAME TO checkpoints_away');
    try {
      await expect(checkpoint.advance(at(5n))).rejects.toThrow(/checkpoints/);
    } finally {
      await db.pool.query('ALTER TABLE checkpoints_away RENAME TO checkpoints');
    }
    await checkpoint.flush();
    expect(await stored('failed')).toBe('5:5');
  });
});

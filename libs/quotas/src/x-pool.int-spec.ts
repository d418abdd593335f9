import { randomUUID } from 'node:crypto';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { X_QUOTA_EXHAUSTED, XPoolDrawAhead } from './spend-x-pool';
import { XPool, xPoolPeriod } from './x-pool';

describe('XPool (real Postgres)', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('draws to exhaustion, then refuses; a refund makes one unit available again', async () => {
    const pool = new XPool(db.pool, 3);
    const workspaceId = randomUUID();
    const tickets = [await pool.draw(workspaceId), await pool.draw(workspaceId), await pool.draw(workspaceId)];
    expect(tickets.every((t) => t !== null)).toBe(true);
    expect(await pool.draw(workspaceId)).toBeNull();
    expect(await pool.used(workspaceId)).toBe(3);
    await pool.refund(tickets[0]!);
    expect(await pool.used(workspaceId)).toBe(2);
    expect(await pool.draw(workspaceId)).not.toBeNull();
    expect(await pool.draw(workspaceId)).toBeNull();
  });

  it('keeps workspaces and calendar months (UTC) apart; a refund goes back to the month it was drawn in', async () => {
    const pool = new XPool(db.pool, 1);
    const [a, b] = [randomUUID(), randomUUID()];
    const january = new Date('2031-01-31T23:59:59Z');
    const february = new Date('2031-02-01T00:00:00Z');
    const ticket = await pool.draw(a, january);
    expect(ticket).toEqual({ workspaceId: a, period: '2031-01-01' });
    expect(await pool.draw(a, january)).toBeNull();
    expect(await pool.draw(b, january)).not.toBeNull();
    expect(await pool.draw(a, february)).not.toBeNull();
    await pool.refund(ticket!);
    expect(await pool.used(a, january)).toBe(0);
    expect(await pool.used(a, february)).toBe(1);
  });

  it('never takes more than the size under concurrent draws', async () => {
    const pool = new XPool(db.pool, 7);
    const workspaceId = randomUUID();
    const results = await Promise.all(Array.from({ length: 40 }, () => pool.draw(workspaceId)));
    expect(results.filter((t) => t !== null)).toHaveLength(7);
    expect(await pool.used(workspaceId)).toBe(7);
  });

  it('never takes more than the size when replicas draw at once, each drawing a moment of draws together', async () => {
    const replicas = Array.from({ length: 6 }, () => new XPool(db.pool, 25));
    const workspaceId = randomUUID();
    const results = await Promise.all(replicas.flatMap((replica) => Array.from({ length: 8 }, () => replica.draw(workspaceId))));
    expect(results.filter((t) => t !== null)).toHaveLength(25);
    expect(await replicas[0].used(workspaceId)).toBe(25);
  });

  it('grants a moment of draws what is left, first asked first served', async () => {
    const pool = new XPool(db.pool, 5);
    const workspaceId = randomUUID();
    expect(await pool.draw(workspaceId)).not.toBeNull();
    const moment = await Promise.all(Array.from({ length: 6 }, () => pool.draw(workspaceId)));
    expect(moment.map((t) => t !== null)).toEqual([true, true, true, true, false, false]);
    expect(await pool.used(workspaceId)).toBe(5);
  });

  it('a refund never takes the count below zero, and a pool of size 0 refuses every draw', async () => {
    const workspaceId = randomUUID();
    await new XPool(db.pool, 5).refund({ workspaceId, period: xPoolPeriod(new Date()) });
    expect(await new XPool(db.pool, 5).used(workspaceId)).toBe(0);
    expect(await new XPool(db.pool, 0).draw(workspaceId)).toBeNull();
  });
});

describe('XPoolDrawAhead (real Postgres)', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  const published = async () => ({ status: 'published' as const, platformPostId: 'p1', url: 'https://x.com/i/status/p1' });
  const refused = async () => ({ status: 'failed' as const, error: { code: 'platform_rejected', message: 'no', retryable: false } });

  it('draws before it is spent; the first spend uses that draw, a call made again draws anew', async () => {
    const pool = new XPool(db.pool, 5);
    const workspaceId = randomUUID();
    const ahead = new XPoolDrawAhead(pool, workspaceId, 'x');
    await new Promise((r) => setTimeout(r, 50));
    expect(await pool.used(workspaceId)).toBe(1); // drawn while the caller was busy elsewhere
    expect(await ahead.spend(refused)).toMatchObject({ status: 'failed' });
    expect(await pool.used(workspaceId)).toBe(0); // the refused call gave it back
    expect(await ahead.spend(published)).toMatchObject({ status: 'published' });
    expect(await pool.used(workspaceId)).toBe(1);
    await ahead.release(); // spent: nothing to give back
    expect(await pool.used(workspaceId)).toBe(1);
  });

  it('gives back a draw no call spent', async () => {
    const pool = new XPool(db.pool, 5);
    const workspaceId = randomUUID();
    const ahead = new XPoolDrawAhead(pool, workspaceId, 'x');
    await ahead.release();
    expect(await pool.used(workspaceId)).toBe(0);
    await ahead.release();
    expect(await pool.used(workspaceId)).toBe(0);
  });

  it('an exhausted pool fails the call without making it; other platforms draw nothing', async () => {
    const pool = new XPool(db.pool, 1);
    const workspaceId = randomUUID();
    expect(await pool.draw(workspaceId)).not.toBeNull();
    let called = false;
    const outcome = await new XPoolDrawAhead(pool, workspaceId, 'x').spend(async () => ((called = true), published()));
    expect(outcome).toEqual({ status: 'failed', error: { ...X_QUOTA_EXHAUSTED } });
    expect(called).toBe(false);
    const other = new XPoolDrawAhead(pool, randomUUID(), 'bluesky');
    expect(await other.spend(published)).toMatchObject({ status: 'published' });
    expect(await pool.used(workspaceId)).toBe(1);
  });
});

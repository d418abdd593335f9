import { randomUUID } from 'node:crypto';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { RateLimitPolicy } from './rate-limit-policy';
import { RateLimiter } from './rate-limiter';
import { RateLimitStore } from './rate-limit-store';

const W = 60_000;
const general: RateLimitPolicy = { name: 'general', limit: 5, windowMs: W };
const replies: RateLimitPolicy = { name: 'replies', limit: 2, windowMs: W };
/** `elapsed` ms into window 30,000,000 (in 2027). */
const at = (elapsed: number, window = 0) => new Date((30_000_000 + window) * W + elapsed);

describe('RateLimitStore and RateLimiter (real Postgres)', () => {
  let db: TestDatabase;
  let store: RateLimitStore;
  let limiter: RateLimiter;

  beforeAll(async () => {
    db = await createTestDatabase();
    store = new RateLimitStore(db.pool);
    limiter = new RateLimiter(store);
  });
  afterAll(() => db.drop());

  it('the table is UNLOGGED', async () => {
    const { rows } = await db.pool.query(`SELECT relpersistence FROM pg_class WHERE relname = 'rate_limit_counters'`);
    expect(rows[0].relpersistence).toBe('u');
  });

  it('counts per key and policy in one statement, and rolls the window forward in place', async () => {
    const key = randomUUID();
    await store.hit(key, [general], at(1000));
    const both = await store.hit(key, [replies, general], at(2000));
    expect(both.get('general')).toEqual({ windowIndex: 30_000_000, current: 2, previous: 0 });
    expect(both.get('replies')).toEqual({ windowIndex: 30_000_000, current: 1, previous: 0 });
    expect((await store.hit(randomUUID(), [general], at(3000))).get('general')?.current).toBe(1);
    // Next window: the current count becomes the previous one.
    expect((await store.hit(key, [general], at(10, 1))).get('general')).toEqual({ windowIndex: 30_000_001, current: 1, previous: 2 });
    // A replica whose clock lags one window behind counts into the row's newer window.
    expect((await store.hit(key, [general], at(W - 5, 0))).get('general')).toEqual({ windowIndex: 30_000_001, current: 2, previous: 2 });
    // Two windows later nothing is carried.
    expect((await store.hit(key, [general], at(0, 3))).get('general')).toEqual({ windowIndex: 30_000_003, current: 1, previous: 0 });
    const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM rate_limit_counters WHERE key_id = $1', [key]);
    expect(rows[0].n).toBe(2);
  });

  it('refuses the request over the limit, and lets requests through again as the window slides', async () => {
    const key = randomUUID();
    for (let i = 0; i < 5; i++) expect((await limiter.check(key, [general], at(1000 + i)))?.allowed).toBe(true);
    const refused = await limiter.check(key, [general], at(2000));
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    // 6 counted (refusals count): in the next window ceil(6 × unelapsed) ≤ 4 from a third of the way in.
    expect(refused?.retryAfterSeconds).toBe(58 + 20);
    expect((await limiter.check(key, [general], at(W / 3 + 1, 1)))?.allowed).toBe(true);
  });

  it('the reply limit is counted separately and reported when it is the one that refuses', async () => {
    const key = randomUUID();
    expect(await limiter.check(key, [general, replies], at(0))).toMatchObject({ allowed: true, remaining: 1, policy: replies });
    expect(await limiter.check(key, [general, replies], at(1))).toMatchObject({ allowed: true, remaining: 0, policy: replies });
    expect(await limiter.check(key, [general, replies], at(2))).toMatchObject({ allowed: false, policy: replies });
    // Other routes only count against the general limit: 3 used of 5.
    expect(await limiter.check(key, [general], at(3))).toMatchObject({ allowed: true, remaining: 1, policy: general });
  });

  it('never lets more than the limit through under concurrent requests', async () => {
    const key = randomUUID();
    const verdicts = await Promise.all(Array.from({ length: 30 }, () => limiter.check(key, [replies, general], at(500))));
    expect(verdicts.filter((verdict) => verdict?.allowed)).toHaveLength(2);
    const counts = await store.hit(key, [general], at(501));
    expect(counts.get('general')?.current).toBe(31);
  });

  it('peek reads the standing as the next hit would find it, counting nothing', async () => {
    const key = randomUUID();
    // Nothing stored: nothing used.
    expect(await limiter.standing(key, [general, replies], at(0))).toEqual([
      { policy: general, remaining: 5, resetSeconds: 0 },
      { policy: replies, remaining: 2, resetSeconds: 0 },
    ]);
    await limiter.check(key, [general, replies], at(1000));
    await limiter.check(key, [general], at(2000));
    for (let i = 0; i < 3; i++) {
      expect(await limiter.standing(key, [general, replies], at(30_000))).toEqual([
        { policy: general, remaining: 3, resetSeconds: 90 },
        { policy: replies, remaining: 1, resetSeconds: 90 },
      ]);
    }
    // Half-way into the next window ceil(2 × 0.5) = 1 request is still carried; a hit then rolls the row forward the same way.
    expect((await store.peek(key, [general], at(W / 2, 1))).get('general')).toEqual({ windowIndex: 30_000_001, current: 0, previous: 2 });
    expect(await limiter.standing(key, [general], at(W / 2, 1))).toEqual([{ policy: general, remaining: 4, resetSeconds: 30 }]);
    expect((await store.hit(key, [general], at(W / 2, 1))).get('general')).toEqual({ windowIndex: 30_000_001, current: 1, previous: 2 });
    // A key over its limit still gets its standing (remaining 0), and asking adds nothing.
    const limited = randomUUID();
    for (let i = 0; i < 7; i++) await limiter.check(limited, [general], at(100 + i));
    expect(await limiter.standing(limited, [general, { ...replies, limit: 0 }], at(200))).toEqual([{ policy: general, remaining: 0, resetSeconds: 120 }]);
    expect((await store.peek(limited, [general], at(200))).get('general')?.current).toBe(7);
  });

  it('a policy with limit 0 is off: nothing is counted', async () => {
    const key = randomUUID();
    expect(await limiter.check(key, [{ ...general, limit: 0 }], at(0))).toBeNull();
    const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM rate_limit_counters WHERE key_id = $1', [key]);
    expect(rows[0].n).toBe(0);
  });

  it('sweeps counters idle for two whole windows and keeps the others', async () => {
    const [idle, recent] = [randomUUID(), randomUUID()];
    await store.hit(idle, [general], at(0, 100));
    await store.hit(recent, [general], at(0, 101));
    await store.sweep(at(0, 102));
    const { rows } = await db.pool.query('SELECT key_id FROM rate_limit_counters WHERE key_id = ANY($1)', [[idle, recent]]);
    expect(rows.map((row) => row.key_id)).toEqual([recent]);
  });
});

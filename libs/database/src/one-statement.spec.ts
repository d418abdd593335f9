import { oneStatement } from './one-statement';

describe('oneStatement', () => {
  const last = { text: 'WITH given AS (SELECT $1::text AS name) SELECT name FROM given WHERE name <> $2', values: ['a', 'b'] };

  it('is the last statement itself when there is nothing to write', () => {
    expect(oneStatement([], last)).toBe(last);
  });

  it("puts each write before the last statement's own CTEs, its parameters renumbered after the ones before it", () => {
    const combined = oneStatement(
      [
        { text: 'INSERT INTO t (a, b) VALUES ($1, $2)', values: [1, 2] },
        { text: 'DELETE FROM u WHERE id = ANY($1::uuid[])', values: [['x']] },
      ],
      last,
    );
    expect(combined.text).toBe(
      'WITH write_0 AS (INSERT INTO t (a, b) VALUES ($1, $2)),\nwrite_1 AS (DELETE FROM u WHERE id = ANY($3::uuid[])),\ngiven AS (SELECT $4::text AS name) SELECT name FROM given WHERE name <> $5',
    );
    expect(combined.values).toEqual([1, 2, ['x'], 'a', 'b']);
  });

  it('opens the WITH list itself when the last statement has none, and renumbers two-digit parameters whole', () => {
    const eleven = Array.from({ length: 11 }, (_, i) => i + 1);
    const combined = oneStatement([{ text: `SELECT ${eleven.map((n) => `$${n}`).join(', ')}`, values: eleven }], { text: 'SELECT pg_notify($1, $2)', values: ['c', 'p'] });
    expect(combined.text).toBe(`WITH write_0 AS (SELECT ${eleven.map((n) => `$${n}`).join(', ')})\nSELECT pg_notify($12, $13)`);
    expect(combined.values).toEqual([...eleven, 'c', 'p']);
  });
});

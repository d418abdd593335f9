/** A parameterised SQL statement ($1, $2, … in its text). */
export interface Statement {
  text: string;
  values: unknown[];
}

const PARAMETER = /\$(\d+)/g;

/**
 * Several writes and a last statement sent as one statement: each write becomes
 * a data-modifying CTE (PostgreSQL runs every one of them, referenced or not),
 * the last statement's own CTEs follow them, and its body ends the statement.
 * One statement is one transaction on its own, so the writes and the last
 * statement commit together or not at all, in one round trip with no BEGIN and
 * no COMMIT. The writes see the table as it was when the statement began
 * (one snapshot for all), so no two of them may touch the same row.
 *
 * Each statement's parameters are renumbered after the ones before it. The
 * texts are our own SQL, whose only `$` are parameters (no dollar quoting, no
 * `$` in a literal): the renumbering relies on it.
 */
export function oneStatement(writes: Statement[], last: Statement): Statement {
  if (writes.length === 0) return last;
  const values: unknown[] = [];
  const renumbered = (statement: Statement): string => {
    const offset = values.length;
    values.push(...statement.values);
    return statement.text.replace(PARAMETER, (_match, n: string) => `$${Number(n) + offset}`);
  };
  const ctes = writes.map((write, i) => `write_${i} AS (${renumbered(write)})`);
  const tail = renumbered(last).trimStart();
  // The last statement's own WITH list goes on after the writes' (one WITH per statement).
  const text = /^WITH\s/i.test(tail) ? `WITH ${ctes.join(',\n')},\n${tail.replace(/^WITH\s+/i, '')}` : `WITH ${ctes.join(',\n')}\n${tail}`;
  return { text, values };
}

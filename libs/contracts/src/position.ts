/**
 * A place in the global feed (the store writes it, the read models wait for it). EventStoreDB gives (commit, prepare); the
 * PostgreSQL adapter maps (transaction id, global sequence) onto the same pair,
 * so both order lexicographically and resume the same way.
 */
export interface GlobalPosition {
  commit: bigint;
  prepare: bigint;
}

/** Before the first event: reading "after" it starts at the beginning. */
export const START: GlobalPosition = Object.freeze({ commit: 0n, prepare: 0n });

export function comparePositions(a: GlobalPosition, b: GlobalPosition): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

/** bigint does not survive JSON: positions travel and persist as "commit:prepare". */
export function formatPosition(p: GlobalPosition): string {
  return `${p.commit}:${p.prepare}`;
}

export function parsePosition(text: string): GlobalPosition {
  const match = /^(\d+):(\d+)$/.exec(text);
  if (!match) throw new Error(`not a global position: ${JSON.stringify(text)}`);
  return { commit: BigInt(match[1]), prepare: BigInt(match[2]) };
}

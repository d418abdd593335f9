import { DomainError } from '@app/contracts';

/**
 * Where a page of a newest-first list ends: the last item's immutable sort key
 * (a post's creation time, a comment's time on the platform) in microseconds
 * since the epoch, exactly as PostgreSQL stores it, and its id to break ties.
 * The next page is every row strictly before it in (sort key, id) order, so
 * rows inserted meanwhile never shift a page: nothing is skipped or repeated.
 */
export interface ListPosition {
  sortKeyMicros: string;
  id: string;
}

/** The lists that hand out cursors; a cursor of one is refused on the other. */
export type CursorList = 'posts' | 'comments';

/** The filters a page was read with, as their query values (absent filters left out). */
export type ListFilterValues = Record<string, string | undefined>;

interface CursorPayload {
  list: CursorList;
  filter: Record<string, string>;
  sortKeyMicros: string;
  id: string;
}

const MICROS = /^-?\d{1,19}$/;
/**
 * The instants a sort key can hold: from PostgreSQL's earliest timestamp (4714 BC) to JavaScript's
 * latest Date (the events carry times as ISO strings from a Date). Outside it the SQL would fail.
 */
const EARLIEST_MICROS = -210_866_803_200_000_000n;
const LATEST_MICROS = 8_640_000_000_000_000_000n;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The filters in one canonical form: absent ones dropped, names sorted. */
function canonicalFilter(filter: ListFilterValues): Record<string, string> {
  return Object.fromEntries(
    Object.entries(filter)
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

function describeFilter(filter: Record<string, string>): string {
  const entries = Object.entries(filter);
  return entries.length === 0 ? 'no filter' : entries.map(([name, value]) => `${name}=${value}`).join('&');
}

/** A cursor is a query value: a bad one is invalid_query, like any other value outside its rule. */
export function refusedCursor(message: string): DomainError {
  return new DomainError('invalid_query', message, { details: [message] });
}

/** The refusal of a cursor this API did not issue (or one altered since). */
export function cursorNotIssuedHere(): DomainError {
  return refusedCursor('cursor is not a cursor this API issued: pass nextCursor from the previous page unchanged');
}

/** A cursor's payload made opaque (base64url JSON): every list of the API hands out its cursors this way. */
export function encodeCursorPayload(payload: object): string {
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

/** The object a cursor holds, or null when it is not base64url JSON of an object (each list then checks its fields). */
export function decodeCursorPayload(cursor: string): Record<string, unknown> | null {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  try {
    const payload: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : null;
  } catch {
    return null; // not JSON: not a cursor this service issued
  }
}

/** The opaque cursor for the page after `position`, bound to the list and the filters it was read with. */
export function encodeListCursor(list: CursorList, filter: ListFilterValues, position: ListPosition): string {
  const payload: CursorPayload = { list, filter: canonicalFilter(filter), sortKeyMicros: position.sortKeyMicros, id: position.id };
  return encodeCursorPayload(payload);
}

function parsePayload(cursor: string): CursorPayload | null {
  const payload = decodeCursorPayload(cursor);
  if (!payload) return null;
  const { list, filter, sortKeyMicros, id } = payload;
  if (typeof list !== 'string' || typeof sortKeyMicros !== 'string' || typeof id !== 'string') return null;
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) return null;
  if (!Object.values(filter).every((value) => typeof value === 'string')) return null;
  if (!MICROS.test(sortKeyMicros) || !UUID.test(id)) return null;
  if (BigInt(sortKeyMicros) < EARLIEST_MICROS || BigInt(sortKeyMicros) > LATEST_MICROS) return null;
  return { list: list as CursorList, filter: filter as Record<string, string>, sortKeyMicros, id };
}

/**
 * The position a cursor continues from. Refused (invalid_query) when it is not
 * one this service issued, belongs to the other list, or was issued for other
 * filters: following it would silently mix two different lists.
 */
export function decodeListCursor(cursor: string, list: CursorList, filter: ListFilterValues): ListPosition {
  const payload = parsePayload(cursor);
  if (!payload) throw cursorNotIssuedHere();
  if (payload.list !== list) throw refusedCursor(`cursor was issued by the ${payload.list} list, not the ${list} list`);
  const expected = canonicalFilter(filter);
  if (JSON.stringify(payload.filter) !== JSON.stringify(expected)) {
    throw refusedCursor(`cursor was issued for ${describeFilter(payload.filter)}, not ${describeFilter(expected)}: keep the filters of the first page`);
  }
  return { sortKeyMicros: payload.sortKeyMicros, id: payload.id };
}

/** A page of a list and the cursor of the page after it (null on the last page). */
export interface ListPage<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * SQL pieces shared by the list readers: the keyset condition after a position
 * and the sort key in microseconds (exact: a JavaScript Date would drop them).
 */
export const keyset = {
  /**
   * `(column, id) < (position)`: served by the lists' (workspace, ..., column DESC, id DESC) indexes.
   * Whole days and the microseconds left apart: multiplying an interval goes through float8, exact
   * only for the remainder; days on a timestamp without zone are plain 86,400 s, whatever the session's zone.
   */
  after(column: string, params: unknown[], position: ListPosition): string {
    const micros = params.push(position.sortKeyMicros);
    const id = params.push(position.id);
    const days = `make_interval(days => ($${micros}::bigint / 86400000000)::int)`;
    const at = `(timestamp 'epoch' + ${days} + ($${micros}::bigint % 86400000000) * interval '1 microsecond') AT TIME ZONE 'UTC'`;
    return `(${column}, id) < (${at}, $${id}::uuid)`;
  },
  sortKeyMicros(column: string): string {
    return `((extract(epoch FROM ${column}) * 1000000)::bigint)::text AS sort_key_micros`;
  },
};

/**
 * Splits the rows read with limit + 1 into the page and the cursor after it:
 * the extra row only says another page exists.
 */
export function toPage<Row extends { id: string; sort_key_micros: string }, T>(
  rows: Row[],
  limit: number,
  toItem: (row: Row) => T,
  cursorAfter: (position: ListPosition) => string,
): ListPage<T> {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const nextCursor = rows.length > limit && last ? cursorAfter({ sortKeyMicros: last.sort_key_micros, id: last.id }) : null;
  return { items: page.map(toItem), nextCursor };
}

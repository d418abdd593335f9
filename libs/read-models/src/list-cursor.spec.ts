import { DomainError } from '@app/contracts';
import { decodeListCursor, encodeListCursor, toPage } from './list-cursor';

const position = { sortKeyMicros: '1795466472123457', id: '019ab0c4-5e6f-7a00-8b00-000000000001' };
const forge = (payload: unknown) => Buffer.from(JSON.stringify(payload)).toString('base64url');

function refusal(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('list cursors', () => {
  it('gives back the position it was made from, for the same list and filters in any order', () => {
    const cursor = encodeListCursor('comments', { platform: 'x', sentiment: undefined, unreplied: '1' }, position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeListCursor(cursor, 'comments', { unreplied: '1', platform: 'x' })).toEqual(position);
  });

  it.each([
    ['another filter value', { status: 'scheduled' }, 'cursor was issued for status=draft, not status=scheduled'],
    ['the filter left out', {}, 'cursor was issued for status=draft, not no filter'],
  ])('refuses %s with invalid_query, saying what it was issued for', (_name, filter, message) => {
    const cursor = encodeListCursor('posts', { status: 'draft' }, position);
    const error = refusal(() => decodeListCursor(cursor, 'posts', filter));
    expect(error.code).toBe('invalid_query');
    expect(error.message).toContain(message);
  });

  it('refuses a cursor of the other list', () => {
    const error = refusal(() => decodeListCursor(encodeListCursor('posts', {}, position), 'comments', {}));
    expect(error).toMatchObject({ code: 'invalid_query', message: 'cursor was issued by the posts list, not the comments list' });
  });

  it.each([
    ['not base64url', 'a+b/c='],
    ['not JSON', Buffer.from('{"list":').toString('base64url')],
    ['JSON that is no object', forge([1, 2])],
    ['a filter value that is no string', forge({ list: 'posts', filter: { status: 1 }, ...position })],
    ['a sort key with a fraction', forge({ list: 'posts', filter: {}, ...position, sortKeyMicros: '1.5' })],
    ['a sort key past the latest instant a Date holds', forge({ list: 'posts', filter: {}, ...position, sortKeyMicros: '8640000000000000001' })],
    ['a sort key before the earliest PostgreSQL timestamp', forge({ list: 'posts', filter: {}, ...position, sortKeyMicros: '-210866803200000001' })],
    ['an id that is no uuid', forge({ list: 'posts', filter: {}, ...position, id: '1; DROP TABLE post_views' })],
  ])('refuses %s as a cursor this API did not issue', (_name, cursor) => {
    expect(refusal(() => decodeListCursor(cursor, 'posts', {}))).toMatchObject({ code: 'invalid_query', message: expect.stringContaining('not a cursor this API issued') });
  });

  it('accepts the extreme sort keys the SQL can still turn into a timestamp', () => {
    for (const sortKeyMicros of ['8640000000000000000', '-210866803200000000']) {
      expect(decodeListCursor(forge({ list: 'posts', filter: {}, ...position, sortKeyMicros }), 'posts', {})).toEqual({ ...position, sortKeyMicros });
    }
  });

  it('pages rows read with limit + 1: a cursor after the last item only when another row exists', () => {
    const rows = ['a', 'b', 'c'].map((id, i) => ({ id, sort_key_micros: String(10 - i) }));
    const cursorAfter = (p: { sortKeyMicros: string; id: string }) => `${p.id}@${p.sortKeyMicros}`;
    expect(toPage(rows, 2, (row) => row.id, cursorAfter)).toEqual({ items: ['a', 'b'], nextCursor: 'b@9' });
    expect(toPage(rows.slice(0, 2), 2, (row) => row.id, cursorAfter)).toEqual({ items: ['a', 'b'], nextCursor: null });
    expect(toPage([], 2, (row: { id: string; sort_key_micros: string }) => row.id, cursorAfter)).toEqual({ items: [], nextCursor: null });
  });
});

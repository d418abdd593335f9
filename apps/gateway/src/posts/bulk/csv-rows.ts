import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { BULK_IMPORT_MAX_ROWS, DomainError, isPlatform } from '@app/contracts';

/**
 * The CSV columns of a bulk import (README, Bulk import), each a field of a single create:
 * lists (accounts, platforms, mediaUrls, firstComments) are separated by `|` — never a part of
 * an account reference, a url or a platform id — with the spaces around each entry dropped;
 * `content_<platform>` is that platform's override of the content (overrides.<platform>.content).
 * An empty cell is an absent field.
 */
export const CSV_COLUMNS = ['content', 'accounts', 'platforms', 'scheduledAt', 'queue', 'mediaUrls', 'firstComments'] as const;
const LIST_COLUMNS = new Set(['accounts', 'platforms', 'mediaUrls', 'firstComments']);
const OVERRIDE_PREFIX = 'content_';

/**
 * A CSV data line as a create body (before the create DTO checks it), or — a line the parser
 * could not read (an unclosed quote, another number of cells) — why, with its 1-based row number
 * (the header is row 0; a line that cannot be read still counts as its row).
 */
export type CsvRow = { row: number; body: Record<string, unknown> } | { row: number; unreadable: { message: string; details: { line: number | null; reason: string } } };

/** The header's columns all known, or the upload refused before any row is read. */
function checkHeader(columns: string[]): void {
  const unknown = columns.filter((column) => !(CSV_COLUMNS as readonly string[]).includes(column) && !(column.startsWith(OVERRIDE_PREFIX) && isPlatform(column.slice(OVERRIDE_PREFIX.length))));
  if (unknown.length > 0) {
    throw new DomainError('unknown_field', `the CSV header names columns a bulk import does not take: ${unknown.join(', ')}`, {
      details: unknown.map((field) => ({ field, suggestion: null, allowed: [...CSV_COLUMNS, `${OVERRIDE_PREFIX}<platform>`] })),
    });
  }
  if (!columns.includes('content') && !columns.some((c) => c.startsWith(OVERRIDE_PREFIX)) && !columns.includes('mediaUrls')) {
    throw new DomainError('invalid_body', 'the CSV header needs a content column (or content_<platform>, or mediaUrls)');
  }
}

function toBody(record: Record<string, string>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const overrides: Record<string, { content: string }> = {};
  for (const [column, raw] of Object.entries(record)) {
    if (raw === '') continue;
    if (column.startsWith(OVERRIDE_PREFIX)) overrides[column.slice(OVERRIDE_PREFIX.length)] = { content: raw };
    else if (LIST_COLUMNS.has(column)) body[column] = raw.split('|').map((entry) => entry.trim()).filter((entry) => entry !== '');
    // queue: a cell of true or false (the create's queue flag); anything else is kept as text for the DTO to refuse.
    else if (column === 'queue') body.queue = raw.trim() === 'true' ? true : raw.trim() === 'false' ? false : raw;
    else body[column] = column === 'content' ? raw : raw.trim();
  }
  if (Object.keys(overrides).length > 0) body.overrides = overrides;
  return body;
}

/**
 * The rows of a CSV upload, read as the bytes arrive (csv-parse's stream; a row at a time is
 * held, never the file), up to the first past BULK_IMPORT_MAX_ROWS. A header naming an unknown
 * column refuses the whole upload; a line that cannot be read is its row's refusal, and the rows
 * after it are read on (csv-parse's skip_records_with_error: on_skip and on_record run in the
 * file's order, so each gets its row number there).
 */
export async function* csvRows(file: Readable): AsyncGenerator<CsvRow> {
  let ordinal = 0;
  const unreadable: CsvRow[] = [];
  const parser = file.pipe(
    parse({
      bom: true,
      columns: (header: string[]) => {
        const columns = header.map((column) => column.trim());
        checkHeader(columns);
        return columns;
      },
      skip_empty_lines: true,
      skip_records_with_error: true,
      on_record: (record: Record<string, string>) => ({ row: ++ordinal, record }),
      on_skip: (error: unknown) => {
        // The header's refusal is the upload's, not a line's: thrown on, it ends the parse.
        if (error instanceof DomainError || !error) throw error ?? new Error('csv-parse skipped a line without an error');
        const { code, lines } = error as { code?: string; lines?: number };
        unreadable.push({ row: ++ordinal, unreadable: { message: `this CSV line cannot be read: ${(error as Error).message}`, details: { line: lines ?? null, reason: code ?? 'CSV_ERROR' } } });
      },
    }),
  );
  try {
    for await (const { row, record } of parser as AsyncIterable<{ row: number; record: Record<string, string> }>) {
      while (unreadable.length > 0 && unreadable[0].row < row) yield unreadable.shift()!;
      yield { row, body: toBody(record) };
      // The importer stops at the row past the limit (refusing it): nothing after it is read.
      if (row > BULK_IMPORT_MAX_ROWS) return;
    }
    for (const skipped of unreadable) {
      yield skipped;
      if (skipped.row > BULK_IMPORT_MAX_ROWS) return;
    }
  } catch (error) {
    if (error instanceof DomainError) throw error;
    // csv-parse's own errors (CsvError) that no line explains (the header itself unreadable).
    const { code } = error as { code?: string };
    if (typeof code === 'string' && code.startsWith('CSV_')) throw new DomainError('invalid_body', `the CSV cannot be read: ${(error as Error).message}`, { details: { reason: code } });
    throw error;
  } finally {
    file.resume();
  }
}

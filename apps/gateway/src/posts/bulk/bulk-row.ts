import { createHash } from 'node:crypto';
import { BulkImportRow, BulkRowOutcome, DomainError } from '@app/contracts';
import { bodyValidation } from '../../validation/validation-pipes';
import { CreatePostDto, toCreatePostBody } from '../create-post.dto';

/** Canonical JSON (keys sorted): the same row always hashes the same. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b))) : inner,
  );
}

/** `<row>:<first 16 hex of the sha256 of the row as sent>`: stable across retries of the same upload, different for another row. */
export function rowIdentity(row: number, raw: unknown): string {
  return `${row}:${createHash('sha256').update(canonical(raw)).digest('hex').slice(0, 16)}`;
}

/** The field a shape refusal names (unknown_field's details.field, or the first word of invalid_body's first problem). */
function fieldOf(error: DomainError): string | undefined {
  const details = error.extra.details;
  if (details && typeof details === 'object' && 'field' in details) return String((details as { field: unknown }).field);
  if (Array.isArray(details) && details.length > 0) {
    const first = details[0] as unknown;
    if (first && typeof first === 'object' && 'field' in first) return String((first as { field: unknown }).field);
    if (typeof first === 'string') return first.split(' ')[0];
  }
  return undefined;
}

/**
 * One row checked by the single create's DTO (the same pipe as POST /api/v1/posts: types and
 * unknown fields); the contract's rules are the posts service's, as for a single create.
 * `column` maps a create field to the name the upload used (a CSV column).
 */
export async function checkRow(row: number, raw: unknown, column: (field: string) => string = (field) => field): Promise<{ ok: BulkImportRow } | { refused: BulkRowOutcome }> {
  const identity = rowIdentity(row, raw);
  try {
    const dto = (await bodyValidation.transform(raw, { type: 'body', metatype: CreatePostDto })) as CreatePostDto;
    return { ok: { row, identity, body: toCreatePostBody(dto) } };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const field = fieldOf(error);
    return { refused: { row, identity, status: 'refused', error: { code: error.code, message: error.message, ...(field ? { column: column(field) } : {}), details: error.extra.details } } };
  }
}

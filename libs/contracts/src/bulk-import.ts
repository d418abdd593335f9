import type { CommandActor } from './commands';
import type { ErrorCode } from './error-codes';
import type { CreatePostBody } from './post-api';

/** At most this many posts in one bulk import (JSON array or CSV rows). */
export const BULK_IMPORT_MAX_ROWS = 1000;

/**
 * One row of a bulk import, as the gateway read and shape-checked it: its number (1-based: the
 * JSON array index + 1, or the CSV data line after the header) and its identity, `<row>:<sha256 of
 * the row's body, first 16 hex>` — stable across retries of the same upload.
 */
export interface BulkImportRow {
  row: number;
  identity: string;
  body: CreatePostBody;
}

/** posts.create-bulk: rows decided one by one by the single create's decision; atomic: all or nothing. */
export interface BulkCreatePostsCommand {
  workspaceId: string;
  rows: BulkImportRow[];
  atomic: boolean;
  /** The upload's Idempotency-Key: each row's create carries `<key>#<identity>`. */
  idempotencyKey: string | null;
  actor?: CommandActor;
}

/** Why a row was not created: the code a single create would answer, and the column (CSV) or field (JSON) it is about when known. */
export interface BulkRowError {
  code: ErrorCode;
  message: string;
  column?: string;
  details?: unknown;
}

/**
 * One row's outcome: created (postId; replayed on a retry with the same Idempotency-Key),
 * refused (error), or — atomic imports with a refused row — not created because another was (skipped).
 */
export interface BulkRowOutcome {
  row: number;
  identity: string;
  status: 'created' | 'refused' | 'skipped';
  postId?: string;
  replayed?: boolean;
  error?: BulkRowError;
}

export interface BulkCreatePostsReply {
  rows: BulkRowOutcome[];
  /** Global position of the last event appended (read-your-writes), null when nothing was. */
  position: string | null;
}

/** The answer of POST /api/v1/posts/bulk (and the last line of its NDJSON stream). */
export interface BulkImportResponse {
  atomic: boolean;
  total: number;
  created: number;
  refused: number;
  rows: BulkRowOutcome[];
}

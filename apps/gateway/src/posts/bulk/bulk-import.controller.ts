import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { Controller, Headers, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiExtraModels, ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '@app/config';
import { BULK_IMPORT_MAX_ROWS, BulkImportResponse, BulkImportRow, BulkRowOutcome, DomainError } from '@app/contracts';
import { CommandClient } from '@app/messaging';
import { ProjectionWaiter } from '@app/read-models';
import { KeyPrincipal } from '@app/workspaces';
import { Principal } from '../../auth/principal';
import { RequireScopes, RequireScopesForBody } from '../../auth/scopes.decorator';
import { ApiErrors, AUTHENTICATED_ERRORS } from '../../openapi/error-responses';
import { OPERATION_ERRORS } from '../../openapi/operation-errors';
import { BulkImportResponseSchema } from '../../openapi/schemas/bulk-import.schemas';
import { AcceptsUpload } from '../../validation/accepts-upload';
import { bodyValidation } from '../../validation/validation-pipes';
import { actorOf } from '../actor-of';
import { checkIdempotencyKey } from '../idempotency-key';
import { BulkImportDto } from './bulk-import.dto';
import { checkRow, rowIdentity } from './bulk-row';
import { CSV_COLUMNS, csvRows } from './csv-rows';

/** Rows sent to the posts service in one command (non-atomic imports): well under NATS's 1 MiB per message, answered well within the command timeout. */
const ROWS_PER_COMMAND = 100;
const NDJSON = 'application/x-ndjson';

/** One import as it runs: who sends it, how, and the position of the last event it appended. */
interface ImportRun {
  principal: KeyPrincipal;
  atomic: boolean;
  idempotencyKey: string | null;
  requestId: string;
  lastPosition: string | null;
}

/** A row as the upload gave it, before the create DTO checks it (or a CSV line that could not be read). */
type RawRow = { row: number; raw: unknown } | { row: number; unreadable: { message: string; details: unknown } };

/** What a CSV upload calls a create field: content_<platform> for an override, the column of the same name otherwise. */
function csvColumn(field: string): string {
  const override = /^overrides\.([a-z]+)/.exec(field);
  return override ? `content_${override[1]}` : field.split('.')[0];
}

/**
 * POST /api/v1/posts/bulk (README, Bulk import): a JSON body {posts, atomic} or a CSV upload
 * (multipart/form-data: an optional `atomic` field, then the file part), read a row at a time.
 * Each row is checked by the single create's DTO here and decided by the single create's
 * rules in the posts service (posts.create-bulk). The answer lists every row's outcome; with
 * `Accept: application/x-ndjson` each row's outcome is a line sent as soon as it is known, and
 * the last line is the summary (the progress report of a large import).
 */
@ApiTags('posts')
@ApiHeader({ name: 'x-request-id', required: false, description: 'carried to the events the request causes (header x-request-id on NATS)' })
@ApiErrors(...AUTHENTICATED_ERRORS)
@ApiExtraModels(BulkImportDto)
@Controller('api/v1/posts/bulk')
export class BulkImportController {
  constructor(
    private readonly commands: CommandClient,
    @Inject(ProjectionWaiter) private readonly projection: ProjectionWaiter,
    private readonly config: AppConfig,
  ) {}

  @Post()
  @HttpCode(200)
  @AcceptsUpload()
  @RequireScopes('write')
  @RequireScopesForBody((body) => (Array.isArray((body as { posts?: unknown } | null)?.posts) && (body as { posts: unknown[] }).posts.some((p) => (p as { publishNow?: unknown } | null)?.publishNow === true) ? ['publish'] : []))
  @ApiOperation({
    summary: `Create up to ${BULK_IMPORT_MAX_ROWS} posts from a JSON array or a CSV upload, each checked as a single create`,
    description: [
      'JSON: `{"posts": [<POST /api/v1/posts body>, ...], "atomic": false}`. CSV: multipart/form-data with an optional `atomic` field (true or false) and then a file part (text/csv) whose header names',
      `its columns: ${CSV_COLUMNS.join(', ')}, content_<platform>; lists separated by |. Each row's outcome (created with its post id, or refused with the single create's error code and the column) is listed;`,
      'atomic: all rows are created or none. The same Idempotency-Key again creates nothing new (rows answer replayed). Accept: application/x-ndjson streams one line per row, then a summary line.',
    ].join(' '),
  })
  @ApiConsumes('application/json', 'multipart/form-data')
  // One schema per media type: openapi-document.ts (withBulkImportMedia) sets each.
  @ApiBody({ schema: { $ref: getSchemaPath(BulkImportDto) } })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: '1–255 characters: the same upload again creates nothing new; each row answers replayed' })
  @ApiProduces('application/json', NDJSON)
  @ApiOkResponse({ type: BulkImportResponseSchema, description: 'every row\'s outcome, in row order (application/x-ndjson: one row outcome per line as soon as it is known, then {"summary": {atomic, total, created, refused}})' })
  @ApiErrors(...OPERATION_ERRORS.bulkCreatePosts)
  async import(
    @Principal() principal: KeyPrincipal,
    @Req() request: FastifyRequest,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Headers('x-request-id') requestId: string | undefined,
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<BulkImportResponse | Readable> {
    checkIdempotencyKey(idempotencyKey);
    const source = request.isMultipart() ? await this.csvSource(request) : await this.jsonSource(request.body);
    const run: ImportRun = { principal, atomic: source.atomic, idempotencyKey: idempotencyKey ?? null, requestId: requestId ?? randomUUID(), lastPosition: null };
    const outcomes = this.outcomes(run, source.rows, source.column);
    if (accept?.includes(NDJSON)) {
      void reply.header('content-type', NDJSON);
      return Readable.from(this.ndjson(source.atomic, outcomes));
    }
    const rows: BulkRowOutcome[] = [];
    for await (const batch of outcomes) rows.push(...batch);
    return summary(source.atomic, rows.sort((a, b) => a.row - b.row));
  }

  private async jsonSource(body: unknown): Promise<{ atomic: boolean; rows: AsyncIterable<RawRow>; column?: (field: string) => string }> {
    const dto = (await bodyValidation.transform(body, { type: 'body', metatype: BulkImportDto })) as BulkImportDto;
    if (dto.posts.length === 0) throw new DomainError('invalid_body', 'posts must name at least one post');
    async function* rows() {
      for (const [index, raw] of dto.posts.entries()) yield { row: index + 1, raw };
    }
    return { atomic: dto.atomic === true, rows: rows() };
  }

  /** The upload's fields before its file part (atomic), then its rows as they stream in. */
  private async csvSource(request: FastifyRequest): Promise<{ atomic: boolean; rows: AsyncIterable<RawRow>; column: (field: string) => string }> {
    let atomic = false;
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.fieldname !== 'atomic') throw new DomainError('unknown_field', `the upload has a field a bulk import does not take: ${part.fieldname}`, { details: [{ field: part.fieldname, suggestion: null, allowed: ['atomic', 'file'] }] });
        if (part.value !== 'true' && part.value !== 'false') throw new DomainError('invalid_body', 'atomic must be true or false');
        atomic = part.value === 'true';
        continue;
      }
      if (part.type !== 'file') continue;
      const type = part.mimetype.split(';')[0].trim().toLowerCase();
      if (type !== 'text/csv') throw new DomainError('unsupported_media_type', `the file part is ${type}; a bulk import takes text/csv`);
      const file = part.file;
      async function* rows() {
        for await (const line of csvRows(file)) yield 'body' in line ? { row: line.row, raw: line.body } : line;
      }
      return { atomic, rows: rows(), column: csvColumn };
    }
    throw new DomainError('invalid_body', 'the upload has no file part (text/csv)');
  }

  /**
   * Every row's outcome, a batch at a time: refused by its shape at once; the others sent to the
   * posts service ROWS_PER_COMMAND at a time (atomic: all in one command, and none if any row
   * was refused by its shape); the last batch once the read model shows every created post.
   */
  private async *outcomes(
    run: ImportRun,
    source: AsyncIterable<RawRow>,
    column?: (field: string) => string,
  ): AsyncGenerator<BulkRowOutcome[]> {
    let pending: BulkImportRow[] = [];
    const refusedRows: BulkRowOutcome[] = [];
    for await (const next of source) {
      const { row } = next;
      if ('unreadable' in next) {
        // A CSV line the parser could not read: its row is refused, the rows after it go on.
        const refusal: BulkRowOutcome = { row, identity: rowIdentity(row, null), status: 'refused', error: { code: 'invalid_body', ...next.unreadable } };
        if (run.atomic) refusedRows.push(refusal);
        else yield [refusal];
        if (row > BULK_IMPORT_MAX_ROWS) break;
        continue;
      }
      const { raw } = next;
      if (row > BULK_IMPORT_MAX_ROWS) {
        // Past the limit: refused, and nothing after it read (atomic: nothing created).
        const beyond: BulkRowOutcome = { row, identity: rowIdentity(row, raw), status: 'refused', error: { code: 'invalid_body', message: `a bulk import takes at most ${BULK_IMPORT_MAX_ROWS} rows: this row and any after it were not read` } };
        if (run.atomic) refusedRows.push(beyond);
        else yield [beyond];
        break;
      }
      const checked = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? await checkRow(row, raw, column) : notAnObject(row, raw);
      if ('refused' in checked) {
        if (run.atomic) refusedRows.push(checked.refused);
        else yield [checked.refused];
        continue;
      }
      pending.push(checked.ok);
      if (!run.atomic && pending.length >= ROWS_PER_COMMAND) {
        yield await this.create(run, pending);
        pending = [];
      }
    }
    const settle = async () => {
      // Read-your-writes, once: every created post is listed by GET /api/v1/posts when the answer (or the NDJSON summary) comes.
      if (run.lastPosition) await this.projection.waitFor(run.lastPosition, this.config.projectionWaitMs);
    };
    if (run.atomic && refusedRows.length > 0) {
      // All or nothing: a row refused by its shape, and no row is sent.
      const skipped: BulkRowOutcome[] = pending.map((r) => ({ row: r.row, identity: r.identity, status: 'skipped' }));
      yield [...refusedRows, ...skipped].sort((a, b) => a.row - b.row);
      return;
    }
    const last = pending.length > 0 ? await this.create(run, pending) : [];
    await settle();
    if (last.length > 0) yield last;
  }

  /** One command of rows; the position of its last event is kept, for the one read-your-writes wait at the end. */
  private async create(run: ImportRun, rows: BulkImportRow[]): Promise<BulkRowOutcome[]> {
    const { principal } = run;
    const result = await this.commands.request('posts.create-bulk', { workspaceId: principal.workspaceId, rows, atomic: run.atomic, idempotencyKey: run.idempotencyKey, actor: actorOf(principal) }, run.requestId);
    // Commands go one after another: the last one's position is past every earlier one's.
    if (result.position) run.lastPosition = result.position;
    return result.rows;
  }

  private async *ndjson(atomic: boolean, outcomes: AsyncIterable<BulkRowOutcome[]>): AsyncGenerator<string> {
    const rows: BulkRowOutcome[] = [];
    try {
      for await (const batch of outcomes) {
        rows.push(...batch);
        for (const outcome of batch) yield `${JSON.stringify(outcome)}\n`;
      }
      const { rows: _listed, ...counts } = summary(atomic, rows);
      yield `${JSON.stringify({ summary: counts })}\n`;
    } catch (error) {
      // The status line is sent: a failure after it is the stream's last line, in the one error shape.
      const body = error instanceof DomainError ? error.toBody() : { error: { code: 'service_unavailable', message: 'the import stopped; send it again with the same Idempotency-Key: rows already created are not created twice' } };
      yield `${JSON.stringify(body)}\n`;
    }
  }
}

function notAnObject(row: number, raw: unknown): { refused: BulkRowOutcome } {
  return { refused: { row, identity: rowIdentity(row, raw), status: 'refused', error: { code: 'invalid_body', message: `posts[${row - 1}] is ${raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw}, not a post` } } };
}

function summary(atomic: boolean, rows: BulkRowOutcome[]): BulkImportResponse {
  return { atomic, total: rows.length, created: rows.filter((r) => r.status === 'created').length, refused: rows.filter((r) => r.status === 'refused').length, rows };
}

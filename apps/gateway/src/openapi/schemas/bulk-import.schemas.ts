import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { BulkImportResponse, BulkRowError, BulkRowOutcome, ERROR_CODES, ErrorCode } from '@app/contracts';

class BulkRowErrorSchema implements BulkRowError {
  @ApiProperty({ enum: Object.keys(ERROR_CODES), description: 'the code a single create would answer' }) code!: ErrorCode;
  @ApiProperty() message!: string;
  @ApiPropertyOptional({ description: 'the CSV column (or JSON field) the refusal is about, when it is about one' }) column?: string;
  @ApiPropertyOptional({ description: 'as the single create gives them' }) details?: unknown;
}

class BulkRowOutcomeSchema implements BulkRowOutcome {
  @ApiProperty({ description: '1-based: the JSON array index + 1, or the CSV data line after the header' }) row!: number;
  @ApiProperty({ description: '`<row>:<sha256 of the row, first 16 hex>`: the same row of the same upload always has it' }) identity!: string;
  @ApiProperty({ enum: ['created', 'refused', 'skipped'], description: 'skipped: an atomic import with another row refused created nothing' }) status!: 'created' | 'refused' | 'skipped';
  @ApiPropertyOptional({ description: 'created: the post (GET /api/v1/posts/{id})' }) postId?: string;
  @ApiPropertyOptional({ description: 'created: true when a retry with the same Idempotency-Key found it already created' }) replayed?: boolean;
  @ApiPropertyOptional({ type: BulkRowErrorSchema }) error?: BulkRowErrorSchema;
}

export class BulkImportResponseSchema implements BulkImportResponse {
  @ApiProperty() atomic!: boolean;
  @ApiProperty({ description: 'rows read' }) total!: number;
  @ApiProperty() created!: number;
  @ApiProperty() refused!: number;
  @ApiProperty({ type: BulkRowOutcomeSchema, isArray: true, description: 'in row order' }) rows!: BulkRowOutcomeSchema[];
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsOptional } from 'class-validator';
import { BULK_IMPORT_MAX_ROWS } from '@app/contracts';

/**
 * A JSON bulk import: each entry of posts is a single create's body, checked as one (its
 * shape by the create DTO, row by row, so one bad row is reported, not the whole body refused).
 */
export class BulkImportDto {
  @ApiProperty({ type: 'array', maxItems: BULK_IMPORT_MAX_ROWS, items: { type: 'object', description: 'a POST /api/v1/posts body' }, description: `1 to ${BULK_IMPORT_MAX_ROWS} posts, each as POST /api/v1/posts takes it` })
  @IsArray() @ArrayMaxSize(BULK_IMPORT_MAX_ROWS) posts!: unknown[];
  @ApiPropertyOptional({ type: Boolean, default: false, description: 'true: all rows are created, or none (any refused row: nothing is appended)' })
  @IsOptional() @IsBoolean() atomic?: boolean;
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsUUID, Max, Min } from 'class-validator';
import { IsOptional } from 'class-validator';

/** Slots GET /api/v1/queue lists by default, and at most. */
export const QUEUE_LIST_DEFAULT = 10;
export const QUEUE_LIST_MAX = 100;

export class QueueQuery {
  @ApiProperty({ format: 'uuid', description: 'the account whose queue to list' }) @IsUUID() accountId!: string;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: QUEUE_LIST_MAX, default: QUEUE_LIST_DEFAULT, description: `how many upcoming slots (default ${QUEUE_LIST_DEFAULT}, at most ${QUEUE_LIST_MAX})` })
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(QUEUE_LIST_MAX) limit?: number;
}

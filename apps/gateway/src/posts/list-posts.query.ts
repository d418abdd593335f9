import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { APPROVAL_STATES, ApprovalState, LIMITS, POST_STATUSES, PostStatus } from '@app/contracts';

/** Far above any cursor the lists issue: a longer value is refused before it is decoded. */
const CURSOR_MAX_LENGTH = 1024;

/**
 * The `cursor` query parameter of both lists: nextCursor of the previous page,
 * passed back unchanged with the same filters (checked when it is decoded).
 */
export function CursorParameter(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'string',
      maxLength: CURSOR_MAX_LENGTH,
      description: 'nextCursor of the previous page, with the same filters; omit for the first page. A cursor issued for other filters or another list is refused with invalid_query.',
    }),
    IsOptional(),
    IsString(),
    IsNotEmpty({ message: 'cursor must not be empty: omit it for the first page' }),
    MaxLength(CURSOR_MAX_LENGTH),
  );
}

export class ListPostsQuery {
  @ApiPropertyOptional({ enum: POST_STATUSES, description: 'only posts in this status' })
  @IsOptional() @IsIn(POST_STATUSES) status?: PostStatus;
  @ApiPropertyOptional({ enum: APPROVAL_STATES, description: 'only posts held for review in this approval state' })
  @IsOptional() @IsIn(APPROVAL_STATES) approval?: ApprovalState;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, default: LIMITS.listDefault, description: `default ${LIMITS.listDefault}, clamped to ${LIMITS.listMax}` })
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) limit?: number;
  @CursorParameter() cursor?: string;
}

/** Default 20, clamped to 50 (spec, Limits). */
export function clampLimit(limit: number | undefined): number {
  return Math.min(limit ?? LIMITS.listDefault, LIMITS.listMax);
}

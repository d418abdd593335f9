import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsNotEmpty, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { DomainError } from '@app/contracts';
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
  @ApiPropertyOptional({ type: 'string', format: 'date-time', description: 'only posts scheduled or published at or after this instant (ISO 8601 with a zone); drafts have neither time' })
  @IsOptional() @IsISO8601({ strict: true }) from?: string;
  @ApiPropertyOptional({ type: 'string', format: 'date-time', description: 'only posts scheduled or published before this instant (ISO 8601 with a zone)' })
  @IsOptional() @IsISO8601({ strict: true }) to?: string;
}

/** An instant of a query: ISO 8601 with a time and a zone (a bare date or a local time would be read in the server's zone). */
export function queryInstant(name: string, value: string): Date {
  if (!/(T|\s)\d{2}:\d{2}.*(Z|[+-]\d{2}:?\d{2})$/i.test(value)) {
    const message = `${name} must be an ISO 8601 date-time with a zone (2026-11-01T00:00:00Z), not ${JSON.stringify(value)}`;
    throw new DomainError('invalid_query', message, { details: [message] });
  }
  return new Date(value);
}

/** from before to, when both are given. */
export function checkTimeRange(from: Date | undefined, to: Date | undefined): void {
  if (from && to && from >= to) {
    const message = 'from must be before to';
    throw new DomainError('invalid_query', message, { details: [message] });
  }
}

/** Default 20, clamped to 50 (spec, Limits). */
export function clampLimit(limit: number | undefined): number {
  return Math.min(limit ?? LIMITS.listDefault, LIMITS.listMax);
}

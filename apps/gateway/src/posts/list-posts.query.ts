import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Min } from 'class-validator';
import { LIMITS, POST_STATUSES, PostStatus } from '@app/contracts';

export class ListPostsQuery {
  @ApiPropertyOptional({ enum: POST_STATUSES, description: 'only posts in this status' })
  @IsOptional() @IsIn(POST_STATUSES) status?: PostStatus;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, default: LIMITS.listDefault, description: `default ${LIMITS.listDefault}, clamped to ${LIMITS.listMax}` })
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) limit?: number;
}

/** Default 20, clamped to 50 (spec, Limits). */
export function clampLimit(limit: number | undefined): number {
  return Math.min(limit ?? LIMITS.listDefault, LIMITS.listMax);
}

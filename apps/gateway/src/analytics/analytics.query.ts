import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsOptional, IsUUID, Min } from 'class-validator';
import { DomainError, LIMITS, METRIC_NAMES, MetricName, Platform, PLATFORMS } from '@app/contracts';

const FROM_TO = { format: 'date-time', description: 'ISO 8601 (2026-05-04 or 2026-05-04T09:30:00Z); from is included, to is not' } as const;

/** GET /api/v1/posts/:id/metrics. */
export class PostMetricsQuery {
  @ApiPropertyOptional({ enum: ['1'], description: "1: each account's every observation too, oldest first (the curve)" })
  @IsOptional() @IsIn(['1'], { message: 'history must be 1 when given' }) history?: '1';
}

/** GET /api/v1/posts/:id/metrics.svg. */
export class PostMetricsChartQuery {
  @ApiPropertyOptional({ enum: METRIC_NAMES, default: 'likes', description: 'the metric drawn, one line per account' })
  @IsOptional() @IsIn(METRIC_NAMES) metric?: MetricName;
}

/** A time range: from and to, both optional, from before to. */
export class RangeQuery {
  @ApiPropertyOptional(FROM_TO) @IsOptional() @IsISO8601({ strict: true }) from?: string;
  @ApiPropertyOptional(FROM_TO) @IsOptional() @IsISO8601({ strict: true }) to?: string;
}

/** GET /api/v1/analytics/posts. */
export class TopPostsQuery extends RangeQuery {
  @ApiPropertyOptional({ enum: PLATFORMS, description: 'only items on this platform' })
  @IsOptional() @IsIn(PLATFORMS) platform?: Platform;
  @ApiPropertyOptional({ format: 'uuid', description: 'only items of this connected account' })
  @IsOptional() @IsUUID() accountId?: string;
  @ApiPropertyOptional({ enum: METRIC_NAMES, default: 'likes', description: 'highest first; items whose platform does not give it come last' })
  @IsOptional() @IsIn(METRIC_NAMES) sort?: MetricName;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, default: LIMITS.listDefault, description: `default ${LIMITS.listDefault}, clamped to ${LIMITS.listMax}` })
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) limit?: number;
}

/** The range as dates; a from not before to is invalid_query. */
export function rangeOf(query: RangeQuery): { from?: Date; to?: Date } {
  const from = query.from ? new Date(query.from) : undefined;
  const to = query.to ? new Date(query.to) : undefined;
  if (from && to && from >= to) throw new DomainError('invalid_query', 'from must be before to', { details: { field: 'from' } });
  return { from, to };
}

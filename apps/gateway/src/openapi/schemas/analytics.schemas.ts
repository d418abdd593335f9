import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  AccountAnalyticsView,
  AccountItemMetrics,
  FollowersPoint,
  ItemMetrics,
  ItemMetricsPoint,
  METRIC_NAMES,
  MetricName,
  MetricsCollectionError,
  PLATFORMS,
  PostMetricsSummary,
  PostMetricsView,
  TopPostItem,
  TopPostsView,
} from '@app/contracts';

/** Response shapes of the analytics endpoints; each implements the contract's interface. */

const count = (description: string) => ({ type: 'integer', nullable: true, minimum: 0, description }) as const;
const dateTime = { type: 'string', format: 'date-time' } as const;

export class ItemMetricsSchema implements ItemMetrics {
  @ApiProperty(count('times the item was shown')) impressions!: number | null;
  @ApiProperty(count('distinct people it was shown to')) reach!: number | null;
  @ApiProperty(count('likes, favourites, reactions')) likes!: number | null;
  @ApiProperty(count('comments, replies')) comments!: number | null;
  @ApiProperty(count('reposts, retweets, reblogs, shares')) shares!: number | null;
  @ApiProperty(count('saves, bookmarks')) saves!: number | null;
  @ApiProperty(count('link or profile clicks')) clicks!: number | null;
  @ApiProperty(count('video views')) videoViews!: number | null;
}

export class PostMetricsSummarySchema implements PostMetricsSummary {
  @ApiProperty(count('summed over the accounts that give it; null when none does')) likes!: number | null;
  @ApiProperty(count('summed over the accounts')) comments!: number | null;
  @ApiProperty(count('summed over the accounts')) shares!: number | null;
  @ApiProperty(count('summed over the accounts')) impressions!: number | null;
}

export class ItemMetricsPointSchema implements ItemMetricsPoint {
  @ApiProperty(dateTime) observedAt!: string;
  @ApiProperty({ type: ItemMetricsSchema }) metrics!: ItemMetricsSchema;
}

export class AccountItemMetricsSchema implements AccountItemMetrics {
  @ApiProperty({ format: 'uuid' }) accountId!: string;
  @ApiProperty({ enum: PLATFORMS }) platform!: string;
  @ApiProperty({ description: "the platform's id of the published item" }) platformPostId!: string;
  @ApiProperty(dateTime) publishedAt!: string;
  @ApiProperty({ type: ItemMetricsSchema, nullable: true, description: 'the latest numbers; null before the first collection' }) metrics!: ItemMetricsSchema | null;
  @ApiProperty({ ...dateTime, nullable: true }) collectedAt!: string | null;
  // Inline rather than a $ref: OpenAPI 3.0's nullable does not reach through allOf.
  @ApiProperty({
    type: 'object',
    nullable: true,
    required: ['code', 'message', 'failedAt'],
    properties: {
      code: { type: 'string', description: "the platform's refusal, e.g. insufficient_platform_scope (connect the account again to grant it)" },
      message: { type: 'string' },
      failedAt: { type: 'string', format: 'date-time' },
    },
    description: 'the last refusal since the last collection; null when none',
  })
  error!: MetricsCollectionError | null;
  @ApiPropertyOptional({ type: [ItemMetricsPointSchema], description: 'only with history=1: every observation, oldest first' }) history?: ItemMetricsPointSchema[];
}

export class PostMetricsSchema implements PostMetricsView {
  @ApiProperty({ format: 'uuid' }) postId!: string;
  @ApiProperty({ type: PostMetricsSummarySchema }) summary!: PostMetricsSummarySchema;
  @ApiProperty({ type: [AccountItemMetricsSchema], description: 'one entry per account the post was published on' }) accounts!: AccountItemMetricsSchema[];
}

export class TopPostItemSchema implements TopPostItem {
  @ApiProperty({ format: 'uuid' }) postId!: string;
  @ApiProperty({ format: 'uuid' }) accountId!: string;
  @ApiProperty({ enum: PLATFORMS }) platform!: string;
  @ApiProperty() platformPostId!: string;
  @ApiProperty(dateTime) publishedAt!: string;
  @ApiProperty({ type: ItemMetricsSchema }) metrics!: ItemMetricsSchema;
  @ApiProperty(dateTime) collectedAt!: string;
}

export class TopPostsSchema implements TopPostsView {
  @ApiProperty({ enum: METRIC_NAMES }) sort!: MetricName;
  @ApiProperty({ type: [TopPostItemSchema], description: 'highest first' }) items!: TopPostItemSchema[];
}

export class FollowersPointSchema implements FollowersPoint {
  @ApiProperty(dateTime) observedAt!: string;
  @ApiProperty(count('followers (subscribers on YouTube)')) followers!: number | null;
}

export class AccountTotalsSchema extends ItemMetricsSchema {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'items of the account published in the range with numbers collected' }) posts!: number;
}

export class AccountAnalyticsSchema implements AccountAnalyticsView {
  @ApiProperty({ format: 'uuid' }) accountId!: string;
  @ApiProperty({ enum: PLATFORMS }) platform!: string;
  @ApiProperty(count('the latest count')) followers!: number | null;
  @ApiProperty({ ...dateTime, nullable: true }) collectedAt!: string | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'last minus first count in the range; null with fewer than two' }) followersChange!: number | null;
  @ApiProperty({ type: AccountTotalsSchema, description: "the latest numbers of the account's items published in the range, summed" }) totals!: AccountTotalsSchema;
  @ApiProperty({ type: [FollowersPointSchema], description: 'oldest first' }) history!: FollowersPointSchema[];
}

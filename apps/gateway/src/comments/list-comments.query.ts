import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsUUID, Min } from 'class-validator';
import { COMMENT_TAGS, CommentTag } from '@app/classification';
import { COMMENT_SENTIMENTS, CommentSentiment, LIMITS, Platform, PLATFORMS } from '@app/contracts';
import { CursorParameter } from '../posts/list-posts.query';

/** GET /api/v1/comments: every filter checked; a value outside its rule is invalid_query. */
export class ListCommentsQuery {
  @ApiPropertyOptional({ enum: PLATFORMS, description: 'only comments on this platform' })
  @IsOptional() @IsIn(PLATFORMS) platform?: Platform;
  @ApiPropertyOptional({ enum: COMMENT_SENTIMENTS })
  @IsOptional() @IsIn(COMMENT_SENTIMENTS) sentiment?: CommentSentiment;
  @ApiPropertyOptional({ enum: COMMENT_TAGS, description: 'only comments carrying this intent tag (an inbox of questions: tag=question)' })
  @IsOptional() @IsIn(COMMENT_TAGS) tag?: CommentTag;
  @ApiPropertyOptional({ format: 'uuid', description: "only comments under this post (a post's id, as GET /api/v1/posts answers it)" })
  @IsOptional() @IsUUID() postId?: string;
  /** Only "1" means something (spec): anything else is refused rather than read as false. */
  @ApiPropertyOptional({ enum: ['1'], description: '1: only comments with no reply yet' })
  @IsOptional() @IsIn(['1'], { message: 'unreplied must be 1 when given' }) unreplied?: '1';
  @ApiPropertyOptional({ type: 'integer', minimum: 1, default: LIMITS.listDefault, description: `default ${LIMITS.listDefault}, clamped to ${LIMITS.listMax}` })
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) limit?: number;
  @CursorParameter() cursor?: string;
}

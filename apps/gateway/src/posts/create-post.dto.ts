import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsBoolean, IsOptional, IsString } from 'class-validator';
import { CreatePostBody } from '@app/contracts';
import { POST_FIELDS } from '../openapi/post-fields';
import { IsPlatformOptions } from './is-platform-options';
import { IsStringOrNull } from './is-string-or-null';
import { OVERRIDES_SHAPE, PostOverrideDto } from './post-override.dto';
import { THREAD_SHAPE, ThreadPartDto } from './thread-part.dto';
import { NestedArrayOf, NestedRecordOf, recordOf } from '../validation/nested-dtos';

/**
 * The body's shape (types only). The contract's rules — lengths, counts, URL
 * and date formats, account resolution — are the posts service's decision, each
 * with its own error code; here a wrong type is invalid_body.
 */
export class CreatePostDto {
  @ApiPropertyOptional(POST_FIELDS.content) @IsOptional() @IsString() content?: string | null;
  @ApiPropertyOptional(POST_FIELDS.accounts) @IsOptional() @IsArray() @IsString({ each: true }) accounts?: string[] | null;
  /** Deprecated synonym of accounts. */
  @ApiPropertyOptional(POST_FIELDS.accountIds) @IsOptional() @IsArray() @IsString({ each: true }) accountIds?: string[] | null;
  @ApiPropertyOptional(POST_FIELDS.platforms) @IsOptional() @IsArray() @IsString({ each: true }) platforms?: string[] | null;
  @ApiPropertyOptional({ ...POST_FIELDS.scheduledAt, description: `${POST_FIELDS.scheduledAt.description} Not with publishNow.` }) @IsOptional() @IsString() scheduledAt?: string | null;
  @ApiPropertyOptional({ type: Boolean, nullable: true, description: 'Publish immediately, with a result per account; needs the publish scope. Not with scheduledAt.' })
  @IsOptional() @IsBoolean() publishNow?: boolean | null;
  @ApiPropertyOptional({
    type: Boolean,
    nullable: true,
    description: 'true: schedule at the next slot free on every targeted account\'s posting schedule (PUT /api/v1/accounts/{id}/schedule); the answer shows the chosen scheduledAt. Not with scheduledAt or publishNow.',
  })
  @IsOptional() @IsBoolean() queue?: boolean | null;
  @ApiPropertyOptional(POST_FIELDS.mediaUrls) @IsOptional() @IsArray() @IsString({ each: true }) mediaUrls?: string[] | null;
  @ApiPropertyOptional(POST_FIELDS.altText) @IsOptional() @IsArray() @IsStringOrNull({ each: true }) altText?: Array<string | null> | null;
  @ApiPropertyOptional(POST_FIELDS.firstComments) @IsOptional() @IsArray() @IsString({ each: true }) firstComments?: string[] | null;
  @ApiPropertyOptional(POST_FIELDS.overrides) @IsOptional() @NestedRecordOf(() => PostOverrideDto, OVERRIDES_SHAPE) overrides?: Map<string, PostOverrideDto> | null;
  @ApiPropertyOptional(POST_FIELDS.platformOptions) @IsOptional() @IsPlatformOptions() platformOptions?: Record<string, Record<string, unknown>> | null;
  @ApiPropertyOptional(POST_FIELDS.thread) @IsOptional() @NestedArrayOf(() => ThreadPartDto, THREAD_SHAPE) thread?: ThreadPartDto[] | null;
  @ApiPropertyOptional(POST_FIELDS.autoSplit) @IsOptional() @IsBoolean() autoSplit?: boolean | null;
}

/** A null field means the same as an absent one. */
export function toCreatePostBody(dto: CreatePostDto): CreatePostBody {
  return Object.fromEntries(Object.entries({ ...dto, overrides: recordOf(dto.overrides) }).filter(([, value]) => value !== null && value !== undefined)) as CreatePostBody;
}

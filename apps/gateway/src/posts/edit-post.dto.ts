import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsBoolean, IsOptional, IsString } from 'class-validator';
import { EditPostBody } from '@app/contracts';
import { POST_FIELDS } from '../openapi/post-fields';
import { IsPlatformOptions } from './is-platform-options';
import { IsStringOrNull } from './is-string-or-null';
import { OVERRIDES_SHAPE, PostOverrideDto } from './post-override.dto';
import { THREAD_SHAPE, ThreadPartDto } from './thread-part.dto';
import { NestedArrayOf, NestedRecordOf, recordOf } from '../validation/nested-dtos';

/** PATCH body: the fields to change, with the create's types (rules are the posts service's). */
export class EditPostDto {
  @ApiPropertyOptional(POST_FIELDS.content) @IsOptional() @IsString() content?: string | null;
  @ApiPropertyOptional(POST_FIELDS.accounts) @IsOptional() @IsArray() @IsString({ each: true }) accounts?: string[] | null;
  /** Deprecated synonym of accounts. */
  @ApiPropertyOptional(POST_FIELDS.accountIds) @IsOptional() @IsArray() @IsString({ each: true }) accountIds?: string[] | null;
  @ApiPropertyOptional(POST_FIELDS.platforms) @IsOptional() @IsArray() @IsString({ each: true }) platforms?: string[] | null;
  /** null unschedules: the post becomes a draft. */
  @ApiPropertyOptional({ ...POST_FIELDS.scheduledAt, description: `${POST_FIELDS.scheduledAt.description} null unschedules (the post becomes a draft).` }) @IsOptional() @IsString() scheduledAt?: string | null;
  @ApiPropertyOptional(POST_FIELDS.mediaUrls) @IsOptional() @IsArray() @IsString({ each: true }) mediaUrls?: string[] | null;
  @ApiPropertyOptional(POST_FIELDS.altText) @IsOptional() @IsArray() @IsStringOrNull({ each: true }) altText?: Array<string | null> | null;
  @ApiPropertyOptional(POST_FIELDS.firstComments) @IsOptional() @IsArray() @IsString({ each: true }) firstComments?: string[] | null;
  @ApiPropertyOptional(POST_FIELDS.overrides) @IsOptional() @NestedRecordOf(() => PostOverrideDto, OVERRIDES_SHAPE) overrides?: Map<string, PostOverrideDto> | null;
  @ApiPropertyOptional(POST_FIELDS.platformOptions) @IsOptional() @IsPlatformOptions() platformOptions?: Record<string, Record<string, unknown>> | null;
  @ApiPropertyOptional(POST_FIELDS.thread) @IsOptional() @NestedArrayOf(() => ThreadPartDto, THREAD_SHAPE) thread?: ThreadPartDto[] | null;
  @ApiPropertyOptional(POST_FIELDS.autoSplit) @IsOptional() @IsBoolean() autoSplit?: boolean | null;
}

/** null means "leave it" for every field but scheduledAt, where it means "unschedule". */
export function toEditPostBody(dto: EditPostDto): EditPostBody {
  const body = Object.fromEntries(Object.entries({ ...dto, overrides: recordOf(dto.overrides) }).filter(([key, value]) => value !== undefined && (value !== null || key === 'scheduledAt')));
  return body as EditPostBody;
}

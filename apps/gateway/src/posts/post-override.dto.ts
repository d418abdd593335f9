import { IsArray, IsString } from 'class-validator';
import { PostOverride } from '@app/contracts';
import { IsAbsentOr } from '../validation/nested-dtos';
import { IsStringOrNull } from './is-string-or-null';

/**
 * One entry of `overrides` (types only; the rules on the values are the posts
 * service's). Documented by POST_FIELDS.overrides; these are the only fields an
 * override takes, any other is unknown_field.
 */
export class PostOverrideDto implements PostOverride {
  @IsAbsentOr() @IsString() content?: string;
  @IsAbsentOr() @IsArray() @IsString({ each: true }) mediaUrls?: string[];
  @IsAbsentOr() @IsArray() @IsStringOrNull({ each: true }) altText?: Array<string | null>;
  @IsAbsentOr() @IsArray() @IsString({ each: true }) firstComments?: string[];
}

/** The refusal of an `overrides` that is not an object of objects. */
export const OVERRIDES_SHAPE = 'overrides must map each platform or account to an object of override fields';

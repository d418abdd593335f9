import { IsArray, IsString } from 'class-validator';
import { ThreadPartInput } from '@app/contracts';
import { IsAbsentOr } from '../validation/nested-dtos';
import { IsStringOrNull } from './is-string-or-null';

/**
 * One part of `thread` (types only; the rules on the values are the posts
 * service's). Documented by POST_FIELDS.thread; these are the only fields a part
 * takes, any other is unknown_field.
 */
export class ThreadPartDto implements ThreadPartInput {
  @IsString() content!: string;
  @IsAbsentOr() @IsArray() @IsString({ each: true }) mediaUrls?: string[];
  @IsAbsentOr() @IsArray() @IsStringOrNull({ each: true }) altText?: Array<string | null>;
}

/** The refusal of a `thread` that is not an array of objects. */
export const THREAD_SHAPE = 'thread must be an array of objects with content (string) and optionally mediaUrls (strings) and altText (strings or null)';

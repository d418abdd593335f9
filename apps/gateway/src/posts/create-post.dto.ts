import { IsArray, IsBoolean, IsOptional, IsString } from 'class-validator';
import { CreatePostBody } from '@app/contracts';

/**
 * The body's shape (types only). The contract's rules — lengths, counts, URL
 * and date formats, account resolution — are the posts service's decision, each
 * with its own error code; here a wrong type is invalid_body.
 */
export class CreatePostDto {
  @IsOptional() @IsString() content?: string | null;
  @IsOptional() @IsArray() @IsString({ each: true }) accounts?: string[] | null;
  /** Deprecated synonym of accounts. */
  @IsOptional() @IsArray() @IsString({ each: true }) accountIds?: string[] | null;
  @IsOptional() @IsArray() @IsString({ each: true }) platforms?: string[] | null;
  @IsOptional() @IsString() scheduledAt?: string | null;
  @IsOptional() @IsBoolean() publishNow?: boolean | null;
  @IsOptional() @IsArray() @IsString({ each: true }) mediaUrls?: string[] | null;
  @IsOptional() @IsArray() @IsString({ each: true }) firstComments?: string[] | null;
}

/** A null field means the same as an absent one. */
export function toCreatePostBody(dto: CreatePostDto): CreatePostBody {
  return Object.fromEntries(Object.entries(dto).filter(([, value]) => value !== null && value !== undefined)) as CreatePostBody;
}

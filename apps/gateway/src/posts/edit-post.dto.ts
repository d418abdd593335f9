import { IsArray, IsOptional, IsString } from 'class-validator';
import { EditPostBody } from '@app/contracts';

/** PATCH body: the fields to change, with the create's types (rules are the posts service's). */
export class EditPostDto {
  @IsOptional() @IsString() content?: string | null;
  @IsOptional() @IsArray() @IsString({ each: true }) accounts?: string[] | null;
  /** Deprecated synonym of accounts. */
  @IsOptional() @IsArray() @IsString({ each: true }) accountIds?: string[] | null;
  @IsOptional() @IsArray() @IsString({ each: true }) platforms?: string[] | null;
  /** null unschedules: the post becomes a draft. */
  @IsOptional() @IsString() scheduledAt?: string | null;
  @IsOptional() @IsArray() @IsString({ each: true }) mediaUrls?: string[] | null;
  @IsOptional() @IsArray() @IsString({ each: true }) firstComments?: string[] | null;
}

/** null means "leave it" for every field but scheduledAt, where it means "unschedule". */
export function toEditPostBody(dto: EditPostDto): EditPostBody {
  const body = Object.fromEntries(Object.entries(dto).filter(([key, value]) => value !== undefined && (value !== null || key === 'scheduledAt')));
  return body as EditPostBody;
}

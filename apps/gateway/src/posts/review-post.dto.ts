import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/** A reviewer's note on an approval or rejection, kept on the post (approval.note). */
export const REVIEW_NOTE_MAX_CHARS = 2000;

export class ReviewPostDto {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: REVIEW_NOTE_MAX_CHARS, description: "the reviewer's note, shown as approval.note" })
  @IsOptional() @IsString() @MaxLength(REVIEW_NOTE_MAX_CHARS) note?: string | null;
}

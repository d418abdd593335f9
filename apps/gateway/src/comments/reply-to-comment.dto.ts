import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { LIMITS, PLATFORMS, ReplyToCommentBody } from '@app/contracts';

/**
 * The reply body's shape (types only): the rules — a known platform, a stored
 * comment, the message length, the account — are the comments service's, each
 * with its own code. A missing required field or a wrong type is invalid_body.
 */
export class ReplyToCommentDto {
  @ApiProperty({ enum: PLATFORMS, description: "the comment's platform" }) @IsString() platform!: string;
  @ApiProperty({ description: 'the platformCommentId from the comment list' }) @IsString() commentId!: string;
  @ApiProperty({ maxLength: LIMITS.replyMaxChars, description: `reply text, 1 to ${LIMITS.replyMaxChars.toLocaleString('en')} characters` }) @IsString() message!: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: "the connected account that speaks, on the comment's platform; defaults to the workspace's account there" })
  @IsOptional() @IsString() accountId?: string | null;
}

/** A null accountId means the same as an absent one (the default account). */
export function toReplyBody(dto: ReplyToCommentDto): ReplyToCommentBody {
  return { platform: dto.platform, commentId: dto.commentId, message: dto.message, ...(dto.accountId != null ? { accountId: dto.accountId } : {}) };
}

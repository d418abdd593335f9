import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { ModerateCommentBody, PLATFORMS } from '@app/contracts';

/**
 * The comment a request acts on, and who acts (types only): the rules — a
 * known platform, a stored comment, the account — are the comments
 * service's, each with its own code. A missing required field or a wrong type is invalid_body.
 */
export class CommentTargetDto {
  @ApiProperty({ enum: PLATFORMS, description: "the comment's platform" }) @IsString() platform!: string;
  @ApiProperty({ description: 'the platformCommentId from the comment list' }) @IsString() commentId!: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: "the connected account that acts, on the comment's platform; defaults to the account the comment came to" })
  @IsOptional() @IsString() accountId?: string | null;
}

/** A null accountId means the same as an absent one (the default account). */
export function toCommentTarget(dto: CommentTargetDto): ModerateCommentBody {
  return { platform: dto.platform, commentId: dto.commentId, ...(dto.accountId != null ? { accountId: dto.accountId } : {}) };
}

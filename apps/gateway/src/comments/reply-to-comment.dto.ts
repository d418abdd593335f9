import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { LIMITS, ReplyToCommentBody } from '@app/contracts';
import { CommentTargetDto, toCommentTarget } from './comment-target.dto';

/** The reply body's shape: the comment and the account (CommentTargetDto), and the message. */
export class ReplyToCommentDto extends CommentTargetDto {
  @ApiProperty({ maxLength: LIMITS.replyMaxChars, description: `reply text, 1 to ${LIMITS.replyMaxChars.toLocaleString('en')} characters` }) @IsString() message!: string;
}

export function toReplyBody(dto: ReplyToCommentDto): ReplyToCommentBody {
  return { ...toCommentTarget(dto), message: dto.message };
}

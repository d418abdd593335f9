import { ApiProperty } from '@nestjs/swagger';
import { COMMENT_SENTIMENTS, CommentListItem, CommentSentiment, PLATFORMS, ReplyResult } from '@app/contracts';
import { NextCursorProperty } from './list-page.schema';

/** Response shapes of the comments endpoints; each implements the contract's interface. */

export class CommentSchema implements CommentListItem {
  @ApiProperty({ description: "the platform's own comment id: pass it as commentId to reply" }) platformCommentId!: string;
  @ApiProperty({ enum: PLATFORMS }) platform!: string;
  @ApiProperty({ format: 'uuid', description: 'the post it sits under (GET /api/v1/posts/{id}; filter the list with postId)' }) postId!: string;
  @ApiProperty({ format: 'uuid', description: 'the connected account the post was published as: the one that replies when the reply names no accountId' }) accountId!: string;
  @ApiProperty({ description: 'display name or handle of the commenter' }) author!: string;
  @ApiProperty() text!: string;
  @ApiProperty({ enum: COMMENT_SENTIMENTS, description: 'how the commenter sounds, not whether the comment is a problem' }) sentiment!: CommentSentiment;
  @ApiProperty({ type: [String], description: 'intent labels: question, complaint, praise, spam, purchase_intent, urgent; may be empty' }) tags!: string[];
  @ApiProperty({ description: 'whether this workspace has already answered it' }) replied!: boolean;
  @ApiProperty({ type: 'string', nullable: true }) postTitle!: string | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'permalink, when the platform exposes one' }) url!: string | null;
  @ApiProperty({ type: 'string', format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: 'string', nullable: true, description: 'the platformCommentId of the comment this one replies to; null when it answers the post' }) parentCommentId!: string | null;
  @ApiProperty({ description: 'hidden on the platform by this workspace (POST /api/v1/comments/hide)' }) hidden!: boolean;
  @ApiProperty({ description: 'the platform lets the workspace reply to it' }) canReply!: boolean;
  @ApiProperty({ description: 'the platform lets the workspace hide it and show it again' }) canHide!: boolean;
  @ApiProperty({ description: "the platform lets the workspace delete its own replies to it" }) canDelete!: boolean;
}

export class CommentListSchema {
  @ApiProperty({ type: [CommentSchema], description: 'newest first' }) comments!: CommentSchema[];
  @NextCursorProperty() nextCursor!: string | null;
}

export class ReplyIdSchema {
  @ApiProperty({ description: "the platform's id of the reply" }) id!: string;
}

export class ReplyResultSchema implements ReplyResult {
  @ApiProperty({ type: Boolean, enum: [true] }) success!: true;
  @ApiProperty({ description: 'handle of the account that replied' }) repliedAs!: string;
  @ApiProperty({ type: ReplyIdSchema }) result!: ReplyIdSchema;
}

import { applyDecorators } from '@nestjs/common';
import { ApiParam, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { CommentThread, ModerateCommentResult, OwnReplyItem, PLATFORMS } from '@app/contracts';
import { CommentSchema } from './schemas/comment.schemas';

/** The documented parts of the comment operations beyond the list and the reply: threads, hide / unhide, deleting a reply. */

export class ThreadCommentSchema extends CommentSchema {
  @ApiProperty({ enum: ['comment'] }) kind!: 'comment';
}

export class OwnReplySchema implements OwnReplyItem {
  @ApiProperty({ enum: ['reply'] }) kind!: 'reply';
  @ApiProperty({ description: "the platform's id of the reply (the reply's result.id): the replyId to delete it" }) replyId!: string;
  @ApiProperty({ enum: PLATFORMS }) platform!: string;
  @ApiProperty({ description: 'the platformCommentId of the comment it answers' }) parentCommentId!: string;
  @ApiProperty({ description: 'the account that replied' }) accountId!: string;
  @ApiProperty({ description: 'handle of the account that replied' }) repliedAs!: string;
  @ApiProperty() text!: string;
  @ApiProperty({ type: 'string', format: 'date-time' }) createdAt!: string;
  @ApiProperty({ description: 'the platform lets the workspace delete it' }) canDelete!: boolean;
}

export class CommentThreadSchema implements CommentThread {
  @ApiProperty({
    type: 'array',
    items: { oneOf: [{ $ref: getSchemaPath(ThreadCommentSchema) }, { $ref: getSchemaPath(OwnReplySchema) }], discriminator: { propertyName: 'kind' } },
    description: "the comments stored under it (kind comment) and the workspace's live replies to it (kind reply), oldest first",
  })
  replies!: Array<ThreadCommentSchema | OwnReplySchema>;
}

export class ModerateCommentResultSchema implements ModerateCommentResult {
  @ApiProperty({ type: Boolean, enum: [true] }) success!: true;
  @ApiProperty() platformCommentId!: string;
  @ApiProperty({ description: 'whether the comment is now hidden' }) hidden!: boolean;
}

/** The path of one stored comment: /api/v1/comments/{platform}/{commentId}/… */
export const ApiCommentPath = () =>
  applyDecorators(
    ApiParam({ name: 'platform', enum: PLATFORMS, description: "the comment's platform" }),
    ApiParam({ name: 'commentId', description: 'the platformCommentId from the comment list, URL-encoded' }),
  );

export const ApiReplyIdParam = () => ApiParam({ name: 'replyId', description: "the reply's id (result.id of POST /api/v1/comments/reply), URL-encoded" });

import { randomUUID } from 'node:crypto';
import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Logger, Param, Post, Query } from '@nestjs/common';
import { ApiExtraModels, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AppConfig } from '@app/config';
import { CommentListItem, CommentThread, isPlatform, ModerateCommentCommand, ModerateCommentResult, ReplyResult, ReplyToCommentCommand, unknownComment, unknownPlatform } from '@app/contracts';
import { CommandClient } from '@app/messaging';
import { COMMENT_VIEWS_WAITER, CommentViewsReader, ProjectionWaiter, THREAD_MAX_COMMENTS } from '@app/read-models';
import { KeyPrincipal } from '@app/workspaces';
import { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/scopes.decorator';
import { ApiCommentPath, ApiReplyIdParam, CommentThreadSchema, ModerateCommentResultSchema, OwnReplySchema, ThreadCommentSchema } from '../openapi/comment-operations';
import { ApiErrors, AUTHENTICATED_ERRORS } from '../openapi/error-responses';
import { OPERATION_ERRORS } from '../openapi/operation-errors';
import { CommentListSchema, ReplyResultSchema } from '../openapi/schemas/comment.schemas';
import { clampLimit } from '../posts/list-posts.query';
import { bodyValidation, queryValidation } from '../validation/validation-pipes';
import { CommentTargetDto, toCommentTarget } from './comment-target.dto';
import { ListCommentsQuery } from './list-comments.query';
import { ReplyToCommentDto, toReplyBody } from './reply-to-comment.dto';

@ApiTags('comments')
@ApiErrors(...AUTHENTICATED_ERRORS)
@ApiExtraModels(ThreadCommentSchema, OwnReplySchema)
@Controller('api/v1/comments')
export class CommentsController {
  private readonly logger = new Logger(CommentsController.name);

  constructor(
    private readonly commands: CommandClient,
    private readonly comments: CommentViewsReader,
    @Inject(COMMENT_VIEWS_WAITER) private readonly projection: ProjectionWaiter,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @RequireScopes('read')
  @ApiOperation({ summary: 'List comments, newest first, each classified by sentiment and intent tags, a page at a time', description: 'nextCursor, passed back as cursor with the same filters, reads the next page; null on the last page.' })
  @ApiOkResponse({ type: CommentListSchema })
  @ApiErrors(...OPERATION_ERRORS.listComments)
  async list(@Principal() principal: KeyPrincipal, @Query(queryValidation) query: ListCommentsQuery): Promise<{ comments: CommentListItem[]; nextCursor: string | null }> {
    const filter = { platform: query.platform, sentiment: query.sentiment, tag: query.tag, postId: query.postId, unreplied: query.unreplied === '1', limit: clampLimit(query.limit), cursor: query.cursor };
    const page = await this.comments.list(principal.workspaceId, filter);
    return { comments: page.items, nextCursor: page.nextCursor };
  }

  /** Replies publicly, now; answers once the list shows the comment as replied (read-your-writes). */
  @Post('reply')
  @HttpCode(200)
  @RequireScopes('engage')
  @ApiOperation({ summary: 'Reply publicly to a comment as one of the connected accounts, now' })
  @ApiOkResponse({ type: ReplyResultSchema })
  @ApiErrors(...OPERATION_ERRORS.replyToComment)
  async reply(
    @Principal() principal: KeyPrincipal,
    @Body(bodyValidation) dto: ReplyToCommentDto,
    @Headers('x-request-id') requestId: string | undefined,
  ): Promise<ReplyResult> {
    const command: ReplyToCommentCommand = { workspaceId: principal.workspaceId, body: toReplyBody(dto) };
    const reply = await this.commands.request('comments.reply', command, requestId ?? randomUUID());
    await this.listShows(reply.position, `reply ${reply.replyPlatformId}`);
    return { success: true, repliedAs: reply.repliedAs, result: { id: reply.replyPlatformId } };
  }

  /** The comments under a stored comment and the workspace's own replies to it, oldest first. */
  @Get(':platform/:commentId/replies')
  @RequireScopes('read')
  @ApiOperation({
    summary: "A comment's thread: the comments that reply to it and the workspace's live replies, oldest first",
    description: `Only the direct replies (a reply to a reply has its own thread); at most ${THREAD_MAX_COMMENTS} comments. commentId is URL-encoded (Bluesky's ids hold slashes).`,
  })
  @ApiCommentPath()
  @ApiOkResponse({ type: CommentThreadSchema })
  @ApiErrors(...OPERATION_ERRORS.listCommentReplies)
  async replies(@Principal() principal: KeyPrincipal, @Param('platform') platform: string, @Param('commentId') commentId: string): Promise<CommentThread> {
    if (!isPlatform(platform)) throw unknownPlatform(platform);
    const replies = await this.comments.thread(principal.workspaceId, platform, commentId);
    if (!replies) throw unknownComment();
    return { replies };
  }

  /** Hides the comment on its platform (others no longer see it); answers once the list shows it hidden. */
  @Post('hide')
  @HttpCode(200)
  @RequireScopes('engage')
  @ApiOperation({ summary: 'Hide a comment on its platform (Facebook, Instagram, YouTube, X, Threads top-level replies, Bluesky); hiding a hidden comment changes nothing' })
  @ApiOkResponse({ type: ModerateCommentResultSchema })
  @ApiErrors(...OPERATION_ERRORS.hideComment)
  hide(@Principal() principal: KeyPrincipal, @Body(bodyValidation) dto: CommentTargetDto, @Headers('x-request-id') requestId: string | undefined): Promise<ModerateCommentResult> {
    return this.moderate('comments.hide', { workspaceId: principal.workspaceId, body: toCommentTarget(dto) }, requestId);
  }

  /** Shows a hidden comment again; answers once the list shows it. */
  @Post('unhide')
  @HttpCode(200)
  @RequireScopes('engage')
  @ApiOperation({ summary: 'Show a hidden comment again on its platform; unhiding a shown comment changes nothing' })
  @ApiOkResponse({ type: ModerateCommentResultSchema })
  @ApiErrors(...OPERATION_ERRORS.unhideComment)
  unhide(@Principal() principal: KeyPrincipal, @Body(bodyValidation) dto: CommentTargetDto, @Headers('x-request-id') requestId: string | undefined): Promise<ModerateCommentResult> {
    return this.moderate('comments.unhide', { workspaceId: principal.workspaceId, body: toCommentTarget(dto) }, requestId);
  }

  /** Deletes one of the workspace's replies from the platform, as the account that wrote it; answers once the thread no longer shows it. */
  @Delete(':platform/:commentId/replies/:replyId')
  @HttpCode(204)
  @RequireScopes('engage')
  @ApiOperation({ summary: "Delete one of the workspace's own replies to a comment, as the account that wrote it; deleting it again changes nothing" })
  @ApiCommentPath()
  @ApiReplyIdParam()
  @ApiNoContentResponse({ description: 'deleted' })
  @ApiErrors(...OPERATION_ERRORS.deleteCommentReply)
  async deleteReply(
    @Principal() principal: KeyPrincipal,
    @Param('platform') platform: string,
    @Param('commentId') commentId: string,
    @Param('replyId') replyId: string,
    @Headers('x-request-id') requestId: string | undefined,
  ): Promise<void> {
    const deleted = await this.commands.request('comments.delete-reply', { workspaceId: principal.workspaceId, platform, commentId, replyId }, requestId ?? randomUUID());
    await this.listShows(deleted.position, `deletion of reply ${replyId}`);
  }

  private async moderate(name: 'comments.hide' | 'comments.unhide', command: ModerateCommentCommand, requestId: string | undefined): Promise<ModerateCommentResult> {
    const done = await this.commands.request(name, command, requestId ?? randomUUID());
    await this.listShows(done.position, `${name} of ${command.body.commentId}`);
    return { success: true, platformCommentId: command.body.commentId, hidden: done.hidden };
  }

  /**
   * Read-your-writes: waits until the list shows the write at `position` (null: nothing was
   * appended). The platform has acted whatever the read model says: a slow projection
   * delays the answer, never turns it into an error.
   */
  private async listShows(position: string | null, what: string): Promise<void> {
    if (position === null) return;
    if (!(await this.projection.waitFor(position, this.config.projectionWaitMs))) {
      this.logger.warn(`${what}: comment list still behind after ${this.config.projectionWaitMs} ms`);
    }
  }
}

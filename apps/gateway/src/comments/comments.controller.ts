import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, Headers, HttpCode, Inject, Logger, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AppConfig } from '@app/config';
import { CommentListItem, ReplyResult, ReplyToCommentCommand, ReplyToCommentReply } from '@app/contracts';
import { CommandClient } from '@app/messaging';
import { CommentViewsReader, ProjectionWaiter } from '@app/read-models';
import { KeyPrincipal } from '@app/workspaces';
import { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/scopes.decorator';
import { ApiErrors, AUTHENTICATED_ERRORS } from '../openapi/error-responses';
import { OPERATION_ERRORS } from '../openapi/operation-errors';
import { CommentListSchema, ReplyResultSchema } from '../openapi/schemas/comment.schemas';
import { clampLimit } from '../posts/list-posts.query';
import { bodyValidation, queryValidation } from '../validation/validation-pipes';
import { ListCommentsQuery } from './list-comments.query';
import { ReplyToCommentDto, toReplyBody } from './reply-to-comment.dto';

@ApiTags('comments')
@ApiErrors(...AUTHENTICATED_ERRORS)
@Controller('api/v1/comments')
export class CommentsController {
  private readonly logger = new Logger(CommentsController.name);

  constructor(
    private readonly commands: CommandClient,
    private readonly comments: CommentViewsReader,
    @Inject(ProjectionWaiter) private readonly projection: ProjectionWaiter,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @RequireScopes('read')
  @ApiOperation({ summary: 'List comments, newest first, each classified by sentiment and intent tags, a page at a time', description: 'nextCursor, passed back as cursor with the same filters, reads the next page; null on the last page.' })
  @ApiOkResponse({ type: CommentListSchema })
  @ApiErrors(...OPERATION_ERRORS.listComments)
  async list(@Principal() principal: KeyPrincipal, @Query(queryValidation) query: ListCommentsQuery): Promise<{ comments: CommentListItem[]; nextCursor: string | null }> {
    const filter = { platform: query.platform, sentiment: query.sentiment, unreplied: query.unreplied === '1', limit: clampLimit(query.limit), cursor: query.cursor };
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
    const reply = await this.commands.request<ReplyToCommentReply>('comments.reply', command, requestId ?? randomUUID());
    // The reply is live whatever the read model says: a slow projection delays the answer, never turns it into an error.
    if (!(await this.projection.waitFor(reply.position, this.config.projectionWaitMs))) {
      this.logger.warn(`reply ${reply.replyPlatformId}: comment list still behind after ${this.config.projectionWaitMs} ms`);
    }
    return { success: true, repliedAs: reply.repliedAs, result: { id: reply.replyPlatformId } };
  }
}

import { randomUUID } from 'node:crypto';
import { Body, Controller, Delete, Get, Headers, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiHeader, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import {
  CommandPayload,
  CreatePostCommand,
  CreatePostResponse,
  DeletePostCommand,
  DomainError,
  EditPostCommand,
  PostDetail,
  PostListItem,
  PostRecordedResponse,
  PublishPostCommand,
  ReviewPostCommand,
} from '@app/contracts';
import { CommandClient } from '@app/messaging';
import { PostViewsReader } from '@app/read-models';
import { KeyPrincipal } from '@app/workspaces';
import { Principal } from '../auth/principal';
import { RequireScopes, RequireScopesForBody } from '../auth/scopes.decorator';
import { ApiErrors, AUTHENTICATED_ERRORS } from '../openapi/error-responses';
import { OPERATION_ERRORS } from '../openapi/operation-errors';
import { ApiIfMatch, ApiPostAccepted, ApiPostAnswer, ApiPostId, POST_ETAG_HEADER } from '../openapi/post-operations';
import { PostDetailEnvelopeSchema, PostListSchema } from '../openapi/schemas/post.schemas';
import { bodyValidation, queryValidation } from '../validation/validation-pipes';
import { CreatePostDto, toCreatePostBody } from './create-post.dto';
import { EditPostDto, toEditPostBody } from './edit-post.dto';
import { etagOf, parseIfMatch } from './if-match';
import { checkTimeRange, clampLimit, ListPostsQuery, queryInstant } from './list-posts.query';
import { postLocation, PostAnswers } from './post-answers';
import { actorOf } from './actor-of';
import { checkIdempotencyKey } from './idempotency-key';
import { ReviewPostDto } from './review-post.dto';

/** The posts commands answered with the post as the read model shows it. */
type PostAnsweringCommand = 'posts.create' | 'posts.publish' | 'posts.retry' | 'posts.edit' | 'posts.approve' | 'posts.reject';

const notFound = () => new DomainError('not_found', 'no such post in this workspace');
const postId = () => new ParseUUIDPipe({ exceptionFactory: notFound });

@ApiTags('posts')
@ApiHeader({ name: 'x-request-id', required: false, description: 'carried to the events the request causes (header x-request-id on NATS)' })
@ApiErrors(...AUTHENTICATED_ERRORS)
@Controller('api/v1/posts')
export class PostsController {
  constructor(
    private readonly commands: CommandClient,
    private readonly posts: PostViewsReader,
    private readonly answers: PostAnswers,
  ) {}

  /**
   * Sends a posts command and answers with the post as the read model shows it:
   * `done` (201 for create and publish, 200 for an edit), or 202 while publishing;
   * 202 with only the id when the write is recorded but cannot be shown yet.
   * Every 202 carries the post's Location. The ETag is the version of the post shown, as GET
   * gives it: an edit can be followed by another with If-Match.
   */
  private async run<N extends PostAnsweringCommand>(name: N, workspaceId: string, command: CommandPayload<N>, requestId: string | undefined, reply: FastifyReply, done: 200 | 201) {
    const result = await this.commands.request(name, command, requestId ?? randomUUID());
    if (result.replayed) void reply.header('idempotent-replayed', 'true');
    const answer = await this.answers.answer(workspaceId, result);
    const accepted = answer.kind === 'recorded' || answer.publishing;
    if (accepted) void reply.header('location', postLocation(result.postId));
    if (answer.kind === 'shown') void reply.header('etag', etagOf(answer.version));
    void reply.status(accepted ? 202 : done);
    return answer.body;
  }

  @Post()
  @RequireScopes('write')
  // The DTO has not checked the body yet: only a literal true publishes, anything else is a draft or refused by it.
  @RequireScopesForBody((body) => ((body as { publishNow?: unknown } | null)?.publishNow === true ? ['publish'] : []))
  @ApiOperation({
    summary: 'Create a post: a draft, a scheduled post, or published now',
    description: 'Neither scheduledAt nor publishNow: a draft. scheduledAt: scheduled. publishNow: published, with a result per account; needs the publish scope as well as write.',
  })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: '1–255 characters: a retry with the same key and body answers what the first answered (header Idempotent-Replayed: true) and creates nothing' })
  @ApiPostAnswer(201)
  @ApiPostAccepted(true)
  @ApiErrors(...OPERATION_ERRORS.createPost)
  async create(
    @Principal() principal: KeyPrincipal,
    @Body(bodyValidation) dto: CreatePostDto,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Headers('x-request-id') requestId: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CreatePostResponse | PostRecordedResponse> {
    checkIdempotencyKey(idempotencyKey);
    const command: CreatePostCommand = { workspaceId: principal.workspaceId, body: toCreatePostBody(dto), idempotencyKey: idempotencyKey ?? null, actor: actorOf(principal) };
    return this.run('posts.create', principal.workspaceId, command, requestId, reply, 201);
  }

  /** Publishes a draft, or a scheduled post ahead of its time. */
  @Post(':id/publish')
  @RequireScopes('write', 'publish')
  @ApiOperation({ summary: 'Publish a draft, or a scheduled post ahead of its time, to all its accounts' })
  @ApiPostId()
  @ApiPostAnswer(201)
  @ApiPostAccepted(true)
  @ApiErrors(...OPERATION_ERRORS.publishPost)
  async publish(
    @Principal() principal: KeyPrincipal,
    @Param('id', postId()) id: string,
    @Headers('x-request-id') requestId: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CreatePostResponse | PostRecordedResponse> {
    const command: PublishPostCommand = { workspaceId: principal.workspaceId, postId: id, actor: actorOf(principal) };
    return this.run('posts.publish', principal.workspaceId, command, requestId, reply, 201);
  }

  /** Publishes a partial or failed post again to the accounts that failed; never to one that succeeded. */
  @Post(':id/retry')
  @RequireScopes('write', 'publish')
  @ApiOperation({ summary: 'Publish a partial or failed post again to the accounts that failed', description: 'Never to an account that succeeded.' })
  @ApiPostId()
  @ApiPostAnswer(201)
  @ApiPostAccepted(true)
  @ApiErrors(...OPERATION_ERRORS.retryPost)
  async retry(
    @Principal() principal: KeyPrincipal,
    @Param('id', postId()) id: string,
    @Headers('x-request-id') requestId: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CreatePostResponse | PostRecordedResponse> {
    const command: PublishPostCommand = { workspaceId: principal.workspaceId, postId: id };
    return this.run('posts.retry', principal.workspaceId, command, requestId, reply, 201);
  }

  /** A reviewer approves a post held for review: it publishes as its status says (a draft stays a draft). */
  @Post(':id/approve')
  @HttpCode(200)
  @RequireScopes('approve')
  @ApiOperation({ summary: 'Approve a post held for review', description: 'Needs the approve scope. A scheduled post then publishes at its time; approving an approved post changes nothing.' })
  @ApiPostId()
  @ApiPostAnswer(200)
  @ApiPostAccepted(false)
  @ApiErrors(...OPERATION_ERRORS.reviewPost)
  async approve(
    @Principal() principal: KeyPrincipal,
    @Param('id', postId()) id: string,
    @Body(bodyValidation) dto: ReviewPostDto,
    @Headers('x-request-id') requestId: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CreatePostResponse | PostRecordedResponse> {
    return this.review('posts.approve', principal, id, dto, requestId, reply);
  }

  /** A reviewer rejects a post held for review: it is not published (a scheduled one fails at its time with approval_missed) unless edited and approved. */
  @Post(':id/reject')
  @HttpCode(200)
  @RequireScopes('approve')
  @ApiOperation({ summary: 'Reject a post held for review, with a note', description: 'Needs the approve scope. An edit by its writer sends it back to review.' })
  @ApiPostId()
  @ApiPostAnswer(200)
  @ApiPostAccepted(false)
  @ApiErrors(...OPERATION_ERRORS.reviewPost)
  async reject(
    @Principal() principal: KeyPrincipal,
    @Param('id', postId()) id: string,
    @Body(bodyValidation) dto: ReviewPostDto,
    @Headers('x-request-id') requestId: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CreatePostResponse | PostRecordedResponse> {
    return this.review('posts.reject', principal, id, dto, requestId, reply);
  }

  /** A reviewer's decision, answered with the post as it now stands. */
  private review(name: 'posts.approve' | 'posts.reject', principal: KeyPrincipal, id: string, dto: ReviewPostDto, requestId: string | undefined, reply: FastifyReply) {
    const command: ReviewPostCommand = { workspaceId: principal.workspaceId, postId: id, actor: actorOf(principal), note: dto.note ?? null };
    return this.run(name, principal.workspaceId, command, requestId, reply, 200);
  }

  @Get()
  @RequireScopes('read')
  @ApiOperation({
    summary: 'List posts, newest first, a page at a time',
    description: 'nextCursor, passed back as cursor with the same filters, reads the next page; null on the last page. from and to keep the posts scheduled or published in [from, to).',
  })
  @ApiOkResponse({ type: PostListSchema })
  @ApiErrors(...OPERATION_ERRORS.listPosts)
  async list(@Principal() principal: KeyPrincipal, @Query(queryValidation) query: ListPostsQuery): Promise<{ posts: PostListItem[]; nextCursor: string | null }> {
    const from = query.from === undefined ? undefined : queryInstant('from', query.from);
    const to = query.to === undefined ? undefined : queryInstant('to', query.to);
    checkTimeRange(from, to);
    const page = await this.posts.list(principal.workspaceId, { status: query.status, approval: query.approval, limit: clampLimit(query.limit), cursor: query.cursor, from: query.from, to: query.to });
    return { posts: page.items, nextCursor: page.nextCursor };
  }

  @Get(':id')
  @RequireScopes('read')
  @ApiOperation({ summary: 'One post in full', description: 'The ETag header carries its version, for If-Match on edit and delete.' })
  @ApiPostId()
  @ApiOkResponse({ type: PostDetailEnvelopeSchema, headers: POST_ETAG_HEADER })
  @ApiErrors(...OPERATION_ERRORS.getPost)
  async get(
    @Principal() principal: KeyPrincipal,
    @Param('id', postId()) id: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ post: PostDetail }> {
    const post = await this.posts.get(principal.workspaceId, id);
    if (!post) throw notFound();
    void reply.header('etag', etagOf(post.version));
    return { post };
  }

  /** Edits a draft, or a scheduled post before its time; If-Match guards against lost updates. */
  @Patch(':id')
  @RequireScopes('write')
  @ApiOperation({ summary: 'Edit a draft, or a scheduled post before its time', description: 'Send only the fields to change; scheduledAt null makes the post a draft again.' })
  @ApiPostId()
  @ApiIfMatch()
  @ApiPostAnswer(200)
  @ApiPostAccepted(false)
  @ApiErrors(...OPERATION_ERRORS.editPost)
  async edit(
    @Principal() principal: KeyPrincipal,
    @Param('id', postId()) id: string,
    @Body(bodyValidation) dto: EditPostDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Headers('x-request-id') requestId: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CreatePostResponse | PostRecordedResponse> {
    const command: EditPostCommand = { workspaceId: principal.workspaceId, postId: id, changes: toEditPostBody(dto), expectedVersion: parseIfMatch(ifMatch), actor: actorOf(principal) };
    return this.run('posts.edit', principal.workspaceId, command, requestId, reply, 200);
  }

  /** Deletes a draft, or a scheduled post before its time (which cancels its publication). */
  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('write')
  @ApiOperation({ summary: 'Delete a draft, or a scheduled post before its time (which cancels its publication)' })
  @ApiPostId()
  @ApiIfMatch()
  @ApiNoContentResponse({ description: 'deleted' })
  @ApiAcceptedResponse({ description: 'deleted (recorded), but the list may still show the post for a moment: the read model did not catch up within PROJECTION_WAIT_MS' })
  @ApiErrors(...OPERATION_ERRORS.deletePost)
  async delete(
    @Principal() principal: KeyPrincipal,
    @Param('id', postId()) id: string,
    @Headers('if-match') ifMatch: string | undefined,
    @Headers('x-request-id') requestId: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    const command: DeletePostCommand = { workspaceId: principal.workspaceId, postId: id, expectedVersion: parseIfMatch(ifMatch) };
    const result = await this.commands.request('posts.delete', command, requestId ?? randomUUID());
    // Recorded: 204 once the list no longer shows the post; 202 if it may still for a moment (never an error).
    if (!(await this.answers.settle(result))) void reply.status(202);
  }
}

import { randomUUID } from 'node:crypto';
import { Body, Controller, Delete, Get, Headers, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query, Res } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import {
  CommandName,
  CreatePostCommand,
  CreatePostResponse,
  DeletePostCommand,
  DomainError,
  EditPostCommand,
  PostCommandReply,
  PostDetail,
  PostListItem,
  PublishPostCommand,
} from '@app/contracts';
import { CommandClient } from '@app/messaging';
import { PostViewsReader } from '@app/read-models';
import { KeyPrincipal } from '@app/workspaces';
import { assertScopes } from '../auth/api-key.guard';
import { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/scopes.decorator';
import { bodyValidation, queryValidation } from '../validation/validation-pipes';
import { CreatePostDto, toCreatePostBody } from './create-post.dto';
import { EditPostDto, toEditPostBody } from './edit-post.dto';
import { etagOf, parseIfMatch } from './if-match';
import { clampLimit, ListPostsQuery } from './list-posts.query';
import { PostAnswers } from './post-answers';

const notFound = () => new DomainError('not_found', 'no such post in this workspace');
const postId = () => new ParseUUIDPipe({ exceptionFactory: notFound });

@Controller('api/v1/posts')
export class PostsController {
  constructor(
    private readonly commands: CommandClient,
    private readonly posts: PostViewsReader,
    private readonly answers: PostAnswers,
  ) {}

  /**
   * Sends a posts command and answers with the post as the read model shows it:
   * `done` (201 for create and publish, 200 for an edit), or 202 while publishing.
   */
  private async run(name: CommandName, workspaceId: string, command: unknown, requestId: string | undefined, reply: FastifyReply, done: 200 | 201) {
    const result = await this.commands.request<PostCommandReply>(name, command, requestId ?? randomUUID());
    if (result.replayed) void reply.header('idempotent-replayed', 'true');
    const { publishing, body } = await this.answers.answer(workspaceId, result);
    void reply.status(publishing ? 202 : done);
    return body;
  }

  @Post()
  @RequireScopes('write')
  async create(
    @Principal() principal: KeyPrincipal,
    @Body(bodyValidation) dto: CreatePostDto,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Headers('x-request-id') requestId: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CreatePostResponse> {
    if (dto.publishNow === true) assertScopes(principal.scopes, ['write', 'publish']);
    if (idempotencyKey !== undefined && (idempotencyKey.trim() === '' || idempotencyKey.length > 255)) {
      throw new DomainError('invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 characters');
    }
    const command: CreatePostCommand = { workspaceId: principal.workspaceId, body: toCreatePostBody(dto), idempotencyKey: idempotencyKey ?? null };
    return this.run('posts.create', principal.workspaceId, command, requestId, reply, 201);
  }

  /** Publishes a draft, or a scheduled post ahead of its time. */
  @Post(':id/publish')
  @RequireScopes('write', 'publish')
  async publish(
    @Principal() principal: KeyPrincipal,
    @Param('id', postId()) id: string,
    @Headers('x-request-id') requestId: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CreatePostResponse> {
    const command: PublishPostCommand = { workspaceId: principal.workspaceId, postId: id };
    return this.run('posts.publish', principal.workspaceId, command, requestId, reply, 201);
  }

  /** Publishes a partial or failed post again to the accounts that failed; never to one that succeeded. */
  @Post(':id/retry')
  @RequireScopes('write', 'publish')
  async retry(
    @Principal() principal: KeyPrincipal,
    @Param('id', postId()) id: string,
    @Headers('x-request-id') requestId: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CreatePostResponse> {
    const command: PublishPostCommand = { workspaceId: principal.workspaceId, postId: id };
    return this.run('posts.retry', principal.workspaceId, command, requestId, reply, 201);
  }

  @Get()
  @RequireScopes('read')
  async list(@Principal() principal: KeyPrincipal, @Query(queryValidation) query: ListPostsQuery): Promise<{ posts: PostListItem[] }> {
    return { posts: await this.posts.list(principal.workspaceId, { status: query.status, limit: clampLimit(query.limit) }) };
  }

  @Get(':id')
  @RequireScopes('read')
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
  async edit(
    @Principal() principal: KeyPrincipal,
    @Param('id', postId()) id: string,
    @Body(bodyValidation) dto: EditPostDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Headers('x-request-id') requestId: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CreatePostResponse> {
    const command: EditPostCommand = { workspaceId: principal.workspaceId, postId: id, changes: toEditPostBody(dto), expectedVersion: parseIfMatch(ifMatch) };
    return this.run('posts.edit', principal.workspaceId, command, requestId, reply, 200);
  }

  /** Deletes a draft, or a scheduled post before its time (which cancels its publication). */
  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('write')
  async delete(
    @Principal() principal: KeyPrincipal,
    @Param('id', postId()) id: string,
    @Headers('if-match') ifMatch: string | undefined,
    @Headers('x-request-id') requestId: string | undefined,
  ): Promise<void> {
    const command: DeletePostCommand = { workspaceId: principal.workspaceId, postId: id, expectedVersion: parseIfMatch(ifMatch) };
    const result = await this.commands.request<PostCommandReply>('posts.delete', command, requestId ?? randomUUID());
    await this.answers.settle(result);
  }
}

import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, Headers, Param, ParseUUIDPipe, Post, Query, Res } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { CreatePostCommand, CreatePostResponse, DomainError, PostCommandReply, PostDetail, PostListItem, PublishPostCommand } from '@app/contracts';
import { CommandClient } from '@app/messaging';
import { PostViewsReader } from '@app/read-models';
import { KeyPrincipal } from '@app/workspaces';
import { assertScopes } from '../auth/api-key.guard';
import { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/scopes.decorator';
import { bodyValidation, queryValidation } from '../validation/validation-pipes';
import { CreatePostDto, toCreatePostBody } from './create-post.dto';
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

  /** Sends a posts command and answers with the post as the read model shows it (201, or 202 while publishing). */
  private async run(name: 'posts.create' | 'posts.publish' | 'posts.retry', workspaceId: string, command: unknown, requestId: string | undefined, reply: FastifyReply) {
    const result = await this.commands.request<PostCommandReply>(name, command, requestId ?? randomUUID());
    if (result.replayed) void reply.header('idempotent-replayed', 'true');
    const { status, body } = await this.answers.answer(workspaceId, result);
    void reply.status(status);
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
    return this.run('posts.create', principal.workspaceId, command, requestId, reply);
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
    return this.run('posts.publish', principal.workspaceId, command, requestId, reply);
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
    return this.run('posts.retry', principal.workspaceId, command, requestId, reply);
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
  ): Promise<{ post: PostDetail }> {
    const post = await this.posts.get(principal.workspaceId, id);
    if (!post) throw notFound();
    return { post };
  }
}

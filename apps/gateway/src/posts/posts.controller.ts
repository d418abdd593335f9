import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, Headers, HttpCode, Inject, Logger, Param, ParseUUIDPipe, Post, Query, Res } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { AppConfig } from '@app/config';
import { CreatePostCommand, CreatePostReply, CreatePostResponse, DomainError, PostDetail, PostListItem } from '@app/contracts';
import { CommandClient } from '@app/messaging';
import { PostViewsReader, ProjectionWaiter } from '@app/read-models';
import { KeyPrincipal } from '@app/workspaces';
import { assertScopes } from '../auth/api-key.guard';
import { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/scopes.decorator';
import { bodyValidation, queryValidation } from '../validation/validation-pipes';
import { CreatePostDto, toCreatePostBody } from './create-post.dto';
import { clampLimit, ListPostsQuery } from './list-posts.query';

const notFound = () => new DomainError('not_found', 'no such post in this workspace');

@Controller('api/v1/posts')
export class PostsController {
  private readonly logger = new Logger(PostsController.name);

  constructor(
    private readonly commands: CommandClient,
    private readonly posts: PostViewsReader,
    @Inject(ProjectionWaiter) private readonly projection: ProjectionWaiter,
    private readonly config: AppConfig,
  ) {}

  @Post()
  @HttpCode(201)
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
    const result = await this.commands.request<CreatePostReply>('posts.create', command, requestId ?? randomUUID());
    if (result.replayed) void reply.header('idempotent-replayed', 'true');
    // Read-your-writes: the list shows the post by the time this answer arrives.
    if (result.position && !(await this.projection.waitFor(result.position, this.config.projectionWaitMs))) {
      this.logger.warn(`post ${result.response.post.id}: read model still behind after ${this.config.projectionWaitMs} ms`);
    }
    return result.response;
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
    @Param('id', new ParseUUIDPipe({ exceptionFactory: notFound })) id: string,
  ): Promise<{ post: PostDetail }> {
    const post = await this.posts.get(principal.workspaceId, id);
    if (!post) throw notFound();
    return { post };
  }
}

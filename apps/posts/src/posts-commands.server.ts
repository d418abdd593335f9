import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { NatsConnection, Subscription } from 'nats';
import { CreatePostCommand, Subjects } from '@app/contracts';
import { NATS_CONNECTION, serveCommands } from '@app/messaging';
import { CreatePostHandler } from './create-post/create-post.handler';

/** Answers the posts commands on NATS, in the `posts` queue group shared by every replica. */
@Injectable()
export class PostsCommandsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(PostsCommandsServer.name);
  private subscriptions: Subscription[] = [];

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly subjects: Subjects,
    private readonly createPost: CreatePostHandler,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.subscriptions = serveCommands(
      this.nc,
      this.subjects,
      'posts',
      { 'posts.create': (payload, { requestId }) => this.createPost.handle(payload as CreatePostCommand, requestId) },
      (error, name) => this.logger.error(`${name} failed: ${error instanceof Error ? error.stack : String(error)}`),
    );
    // The subscription is registered with the server before we report ready.
    await this.nc.flush();
  }

  onApplicationShutdown(): void {
    for (const subscription of this.subscriptions) subscription.unsubscribe();
  }
}

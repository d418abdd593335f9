import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { NatsConnection, Subscription } from 'nats';
import {
  AbandonPublicationCommand,
  CreatePostCommand,
  DeletePostCommand,
  EditPostCommand,
  FireScheduledPostCommand,
  GetPublicationCommand,
  PublishPostCommand,
  RecordAccountOutcomeCommand,
  RecordFirstCommentCommand,
  StartAccountPublishCommand,
  Subjects,
} from '@app/contracts';
import { NATS_CONNECTION, serveCommands } from '@app/messaging';
import { CreatePostHandler } from './create-post/create-post.handler';
import { EditPostHandler } from './edit-post/edit-post.handler';
import { SchedulerCommandsHandler } from './scheduler-commands/scheduler-commands.handler';
import { PublicationHandler } from './publish-post/publication.handler';
import { PublishPostHandler } from './publish-post/publish-post.handler';

/** Answers the posts commands on NATS, in the `posts` queue group shared by every replica. */
@Injectable()
export class PostsCommandsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(PostsCommandsServer.name);
  private subscriptions: Subscription[] = [];

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly subjects: Subjects,
    private readonly createPost: CreatePostHandler,
    private readonly publishPost: PublishPostHandler,
    private readonly publication: PublicationHandler,
    private readonly editPost: EditPostHandler,
    private readonly schedulerCommands: SchedulerCommandsHandler,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.subscriptions = serveCommands(
      this.nc,
      this.subjects,
      'posts',
      {
        'posts.create': (payload, { requestId }) => this.createPost.handle(payload as CreatePostCommand, requestId),
        'posts.publish': (payload, { requestId }) => this.publishPost.publish(payload as PublishPostCommand, requestId),
        'posts.retry': (payload, { requestId }) => this.publishPost.retry(payload as PublishPostCommand, requestId),
        'posts.edit': (payload, { requestId }) => this.editPost.edit(payload as EditPostCommand, requestId),
        'posts.delete': (payload, { requestId }) => this.editPost.delete(payload as DeletePostCommand, requestId),
        'posts.fire-scheduled': (payload, { requestId }) => this.schedulerCommands.fire(payload as FireScheduledPostCommand, requestId),
        'posts.abandon-publication': (payload, { requestId }) => this.schedulerCommands.abandon(payload as AbandonPublicationCommand, requestId),
        'posts.start-account-publish': (payload, { requestId }) => this.publication.start(payload as StartAccountPublishCommand, requestId),
        'posts.record-account-outcome': (payload, { requestId }) => this.publication.recordOutcome(payload as RecordAccountOutcomeCommand, requestId),
        'posts.record-first-comment': (payload, { requestId }) => this.publication.recordFirstComment(payload as RecordFirstCommentCommand, requestId),
        'posts.get-publication': (payload) => this.publication.get(payload as GetPublicationCommand),
      },
      (error, name) => this.logger.error(`${name} failed: ${error instanceof Error ? error.stack : String(error)}`),
    );
    // The subscription is registered with the server before we report ready.
    await this.nc.flush();
  }

  onApplicationShutdown(): void {
    for (const subscription of this.subscriptions) subscription.unsubscribe();
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { NatsConnection } from 'nats';
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
import { CommandHandlers, CommandsServer, NATS_CONNECTION } from '@app/messaging';
import { CreatePostHandler } from './create-post/create-post.handler';
import { EditPostHandler } from './edit-post/edit-post.handler';
import { SchedulerCommandsHandler } from './scheduler-commands/scheduler-commands.handler';
import { PublicationHandler } from './publish-post/publication.handler';
import { PublishPostHandler } from './publish-post/publish-post.handler';

/** Answers the posts commands on NATS, in the `posts` queue group shared by every replica. */
@Injectable()
export class PostsCommandsServer extends CommandsServer {
  constructor(
    @Inject(NATS_CONNECTION) nc: NatsConnection,
    subjects: Subjects,
    private readonly createPost: CreatePostHandler,
    private readonly publishPost: PublishPostHandler,
    private readonly publication: PublicationHandler,
    private readonly editPost: EditPostHandler,
    private readonly schedulerCommands: SchedulerCommandsHandler,
  ) {
    super(nc, subjects, 'posts');
  }

  protected handlers(): CommandHandlers {
    return {
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
    };
  }
}

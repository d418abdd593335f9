import { Inject, Injectable } from '@nestjs/common';
import { NatsConnection } from 'nats';
import { Subjects } from '@app/contracts';
import { CommandHandlers, CommandsServer, NATS_CONNECTION } from '@app/messaging';
import { CreatePostHandler } from './create-post/create-post.handler';
import { EditPostHandler } from './edit-post/edit-post.handler';
import { SchedulerCommandsHandler } from './scheduler-commands/scheduler-commands.handler';
import { PublicationHandler } from './publish-post/publication.handler';
import { PublishPostHandler } from './publish-post/publish-post.handler';
import { SetScheduleHandler } from './queue/set-schedule.handler';
import { ReviewPostHandler } from './review/review-post.handler';
import { BulkCreateHandler } from './create-post/bulk-create.handler';

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
    private readonly setSchedule: SetScheduleHandler,
    private readonly reviewPost: ReviewPostHandler,
    private readonly bulkCreate: BulkCreateHandler,
  ) {
    super(nc, subjects, 'posts');
  }

  protected handlers(): CommandHandlers {
    return {
      'posts.create': (payload, { requestId }) => this.createPost.handle(payload, requestId),
      'posts.publish': (payload, { requestId }) => this.publishPost.publish(payload, requestId),
      'posts.retry': (payload, { requestId }) => this.publishPost.retry(payload, requestId),
      'posts.edit': (payload, { requestId }) => this.editPost.edit(payload, requestId),
      'posts.delete': (payload, { requestId }) => this.editPost.delete(payload, requestId),
      'posts.approve': (payload, { requestId }) => this.reviewPost.approve(payload, requestId),
      'posts.reject': (payload, { requestId }) => this.reviewPost.reject(payload, requestId),
      'posts.create-bulk': (payload, { requestId }) => this.bulkCreate.handle(payload, requestId),
      'posts.fire-scheduled': (payload, { requestId }) => this.schedulerCommands.fire(payload, requestId),
      'posts.abandon-publication': (payload, { requestId }) => this.schedulerCommands.abandon(payload, requestId),
      'posts.start-account-publish': (payload, { requestId }) => this.publication.start(payload, requestId),
      'posts.record-account-outcome': (payload, { requestId }) => this.publication.recordOutcome(payload, requestId),
      'posts.record-first-comment': (payload, { requestId }) => this.publication.recordFirstComment(payload, requestId),
      'posts.get-publication': (payload) => this.publication.get(payload),
      'queues.set-schedule': (payload, { requestId }) => this.setSchedule.handle(payload, requestId),
    };
  }
}

import { Injectable } from '@nestjs/common';
import { AbandonPublicationCommand, FireScheduledPostCommand } from '@app/contracts';
import { PostCommandRunner } from '../domain/post-command-runner';

/**
 * The scheduler's commands. Any number of scheduler replicas may send it for the
 * same post: the decider publishes (or expires) a scheduled post once, and the
 * store's optimistic concurrency lets exactly one of racing commands append.
 */
@Injectable()
export class SchedulerCommandsHandler {
  constructor(private readonly runner: PostCommandRunner) {}

  async fire(command: FireScheduledPostCommand, requestId: string | undefined): Promise<{ fired: boolean }> {
    const { events } = await this.runner.run(command.postId, 'internal', (_state, now) => ({ type: 'FireScheduledPost', now }), requestId);
    return { fired: events.length > 0 };
  }

  async abandon(command: AbandonPublicationCommand, requestId: string | undefined): Promise<{ abandoned: boolean }> {
    const { events } = await this.runner.run(command.postId, 'internal', (_state, now) => ({ type: 'AbandonPublication', now }), requestId);
    return { abandoned: events.length > 0 };
  }
}

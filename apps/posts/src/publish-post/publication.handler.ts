import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError,
  GetPublicationCommand,
  PublicationState,
  RecordAccountOutcomeCommand,
  RecordFirstCommentCommand,
  RecordFirstCommentReply,
  StartAccountPublishCommand,
  StartAccountPublishReply,
} from '@app/contracts';
import { EVENT_STORE, EventStore } from '@app/event-store';
import { PostCommandRunner } from '../domain/post-command-runner';
import { loadPost } from '../domain/post-stream';
import { startDecision } from '../domain/publication';

/** The publisher's side of a publication: the recorded boundary, outcomes, first comments. */
@Injectable()
export class PublicationHandler {
  constructor(
    private readonly runner: PostCommandRunner,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  async start(command: StartAccountPublishCommand, requestId: string | undefined): Promise<StartAccountPublishReply> {
    const { state, events } = await this.runner.run(
      command.postId,
      'internal',
      (_state, now) => ({ type: 'StartAccountPublish', accountId: command.accountId, attempt: command.attempt, deliveryId: command.deliveryId, now }),
      requestId,
    );
    if (!state.exists) throw new DomainError('not_found', 'no such post');
    return { decision: startDecision(state.accounts[command.accountId], command.deliveryId) };
  }

  async recordOutcome(command: RecordAccountOutcomeCommand, requestId: string | undefined): Promise<{ recorded: boolean }> {
    const { events } = await this.runner.run(
      command.postId,
      'internal',
      (_state, now) => ({ type: 'RecordAccountOutcome', accountId: command.accountId, attempt: command.attempt, outcome: command.outcome, now }),
      requestId,
    );
    return { recorded: events.length > 0 };
  }

  async recordFirstComment(command: RecordFirstCommentCommand, requestId: string | undefined): Promise<RecordFirstCommentReply> {
    const { events } = await this.runner.run(
      command.postId,
      'internal',
      (_state, now) => ({ type: 'RecordFirstComment', accountId: command.accountId, kind: command.kind, index: command.index, outcome: command.outcome, now }),
      requestId,
    );
    return { recorded: events.length > 0 };
  }

  async get(command: GetPublicationCommand): Promise<PublicationState> {
    const { state } = await loadPost(this.store, command.postId);
    if (!state.exists) throw new DomainError('not_found', 'no such post');
    return {
      accounts: Object.values(state.accounts)
        .filter((progress) => progress.attempt === command.attempt)
        .map((progress) => ({
          accountId: progress.account.accountId,
          status: progress.status,
          platformPostId: progress.platformPostId,
          firstCommentsDone: Object.entries(progress.firstComments)
            .map(([index, status]) => ({ index: Number(index), status }))
            .sort((a, b) => a.index - b.index),
          threadDone: Object.entries(progress.thread)
            .map(([index, part]) => ({ index: Number(index), status: part.status, platformPostId: part.status === 'posted' ? part.platformPostId : null }))
            .sort((a, b) => a.index - b.index),
        })),
    };
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { QUEUE_EVENT_VERSION, QueueEvent, queueStreamId } from '@app/contracts';
import { CommandOutcome, CommandRunner, EVENT_STORE, EventStore, LoadedAggregate, toNewEvents } from '@app/event-store';
import { QueueCommand } from './account-queue.commands';
import { accountQueueDecider } from './account-queue.decider';
import { AccountQueueState } from './account-queue.state';

/**
 * The account queues' use of the shared command runner: every command on one account's queue
 * is appended to `queue-<accountId>` with the expected revision, so two claims racing for the
 * same slot cannot both land — the loser is decided again on the winner's claim (conflict retry)
 * and takes the next free slot.
 */
@Injectable()
export class QueueCommandRunner {
  private readonly runner: CommandRunner<QueueCommand, QueueEvent, AccountQueueState>;

  constructor(@Inject(EVENT_STORE) store: EventStore, config: AppConfig) {
    this.runner = new CommandRunner({
      store,
      decider: accountQueueDecider,
      streamId: queueStreamId,
      toNewEvents: (events, state, requestId) => toNewEvents(events, { workspaceId: workspaceOf(state), version: QUEUE_EVENT_VERSION, requestId }),
      now: () => config.now(),
      aggregate: 'posting queue',
    });
  }

  run(accountId: string, build: (state: AccountQueueState, now: Date) => QueueCommand, requestId: string | undefined): Promise<CommandOutcome<QueueEvent, AccountQueueState>> {
    return this.runner.run(accountId, { build, requestId });
  }

  /** The queue as its stream is now (to plan a claim; the claim itself is decided again on append). */
  load(accountId: string): Promise<LoadedAggregate<AccountQueueState>> {
    return this.runner.load(accountId);
  }
}

/** Every decided queue event names its workspace (a schedule or a claim sets it). */
function workspaceOf(state: AccountQueueState): string {
  if (state.workspaceId === null) throw new Error('queue events decided for a queue of no workspace');
  return state.workspaceId;
}

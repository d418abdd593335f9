import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { comparePositions, CreatePostBody, DomainError, parsePosition, QUEUE_HORIZON_DAYS } from '@app/contracts';
import { firstCommonFreeSlot } from './common-free-slot';
import { QueueCommandRunner } from './queue-command-runner';

const DAY_MS = 24 * 3_600_000;
/**
 * Rounds of claiming before a multi-account placement gives up (service_unavailable): a round is
 * lost only when another post took the agreed slot on one account in the meantime, so each round
 * is progress; the bound stops a livelock, as the command runner's does.
 */
const MAX_PLACEMENT_ROUNDS = 20;

/** queue: true is a way to schedule, exclusive of the others; refused as scheduled_and_publish_now is. */
export function checkQueueRequest(body: Pick<CreatePostBody, 'queue' | 'scheduledAt' | 'publishNow'>): void {
  if (body.queue !== true) return;
  if (body.scheduledAt !== undefined) throw new DomainError('queue_and_scheduled_at', 'queue and scheduledAt are mutually exclusive: queue picks the time');
  if (body.publishNow === true) throw new DomainError('queue_and_publish_now', 'queue and publishNow are mutually exclusive');
}

/**
 * Puts a post into the queues of its accounts: the first slot free on every one of them. The slot
 * is planned on the queues as they are (refusals then append nothing), checked against the post's
 * own rules (`check`, the post decider's verdict) before anything is claimed, then claimed on each
 * account's queue stream in account-id order. Each claim is decided where it is serialised (the
 * stream's expected revision): a claim that lost a race takes the next free slot, and a post to
 * several accounts claims again, later, until all of them agree on one instant.
 */
@Injectable()
export class QueuePlacement {
  constructor(
    private readonly queues: QueueCommandRunner,
    private readonly config: AppConfig,
  ) {}

  async place(input: { workspaceId: string; postId: string; accountIds: string[]; check: (scheduledAt: string, now: Date) => void; requestId: string | undefined }): Promise<string> {
    const accountIds = [...new Set(input.accountIds)].sort();
    const now = this.config.now();
    const from = new Date(now.getTime() + 1);
    const until = new Date(now.getTime() + QUEUE_HORIZON_DAYS * DAY_MS);
    const loaded = await Promise.all(accountIds.map(async (accountId) => ({ accountId, state: (await this.queues.load(accountId)).state })));
    for (const { accountId, state } of loaded) {
      // A queue of another workspace is no queue of this one (account ids are resolved in the workspace, so this is a guard).
      if (state.workspaceId !== null && state.workspaceId !== input.workspaceId) throw new DomainError('unknown_account', `no account ${accountId} in this workspace`);
    }
    let slotAt = firstCommonFreeSlot(loaded, input.postId, from, until);
    input.check(slotAt, now);
    try {
      for (let round = 0; round < MAX_PLACEMENT_ROUNDS; round++) {
        const held: string[] = [];
        for (const accountId of accountIds) {
          const target = slotAt;
          const outcome = await this.queues.run(
            accountId,
            (_state, at) => ({ type: 'ClaimQueueSlot', workspaceId: input.workspaceId, accountId, postId: input.postId, notBefore: new Date(target), until, now: at }),
            input.requestId,
          );
          const claimed = outcome.state.claims[input.postId];
          held.push(claimed);
          if (claimed > slotAt) slotAt = claimed;
        }
        if (held.every((claimed) => claimed === slotAt)) return slotAt;
      }
      throw new DomainError('service_unavailable', 'the posting queues are changing too fast; retry');
    } catch (error) {
      await this.release(input.postId, accountIds, input.requestId);
      throw error;
    }
  }

  /**
   * Gives the post's slots back on these accounts (those where it holds none: nothing to do), and
   * answers the latest of `after` and the positions written (read-your-writes covers the release too).
   */
  async release(postId: string, accountIds: string[], requestId: string | undefined, after: string | null = null): Promise<string | null> {
    let latest = after;
    for (const accountId of [...new Set(accountIds)].sort()) {
      const outcome = await this.queues.run(accountId, (_state, now) => ({ type: 'ReleaseQueueSlot', accountId, postId, now }), requestId);
      if (outcome.events.length > 0 && outcome.position && (!latest || comparePositions(parsePosition(outcome.position), parsePosition(latest)) > 0)) latest = outcome.position;
    }
    return latest;
  }
}

import { abandonedAccountError, LIMITS, PostEvent } from '@app/contracts';
import { decideOutcome } from './decide-publish';
import { missedApproval } from './decide-review';
import { AbandonPublication, FireScheduledPost } from './post.commands';
import { ExistingPost, evolve } from './post.state';
import { hasOutcome } from './publication';
import { publishRequested } from './publish-requested';

/** The scheduler's decisions: fire a due post (or expire it: six hours late, or its approval missed), and close a publication that ran past every bound. */
export function decideFire(command: FireScheduledPost, state: ExistingPost): PostEvent[] {
  // Already fired, edited to a draft, or moved later: the scheduler's view was stale; nothing to do.
  if (state.status !== 'scheduled' || !state.data.scheduledAt) return [];
  const lateBy = command.now.getTime() - new Date(state.data.scheduledAt).getTime();
  if (lateBy < 0) return [];
  // Due while awaiting approval (or rejected): failed as the six-hour rule fails a post, never published late.
  const missed = missedApproval(state);
  if (missed || lateBy > LIMITS.overdueScheduledPostMs) {
    const error = missed ?? { code: 'schedule_expired', message: `not published: found ${Math.round(lateBy / 60_000)} minutes after its scheduled time (more than six hours late)`, retryable: false };
    return [{ type: 'ScheduledPostExpired', data: { postId: state.data.postId, scheduledAt: state.data.scheduledAt, error, expiredAt: command.now.toISOString() } }];
  }
  return [publishRequested(state.data, state.attempt + 1, state.data.accounts, command.now)];
}

export function decideAbandon(command: AbandonPublication, state: ExistingPost): PostEvent[] {
  if (state.status !== 'publishing') return [];
  const open = Object.values(state.accounts).filter((progress) => progress.attempt === state.attempt && !hasOutcome(progress));
  const events: PostEvent[] = [];
  let current = state;
  for (const progress of open) {
    const error = abandonedAccountError({ started: progress.status === 'started' });
    const decided = decideOutcome({ type: 'RecordAccountOutcome', accountId: progress.account.accountId, attempt: state.attempt, outcome: { status: 'failed', error }, now: command.now }, current);
    events.push(...decided);
    current = decided.reduce(evolve, current) as ExistingPost;
  }
  return events;
}

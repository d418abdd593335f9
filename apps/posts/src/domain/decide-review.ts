import { DomainError, PostEvent } from '@app/contracts';
import { ApprovePost, RejectPost, Review } from './post.commands';
import { ExistingPost, PostState } from './post.state';

/**
 * Approvals (README, Approvals). The workspace's approvalRequired and the sender's approve scope
 * arrive in the command (Review); the rule is decided here: a post written by a key without the
 * approve scope, in a workspace that requires approval, is held for review — it keeps its status
 * and is not published until a reviewer approves it (decideFire fails it with approval_missed
 * when its time comes first).
 */

/** True when the sender must have a reviewer's approval (absent review: an internal caller). */
export function needsReviewer(review: Review | undefined): review is Review {
  return review !== undefined && review.required && !review.canApprove;
}

/** The event holding a post for review, or none when the sender needs no reviewer or the post already awaits one. */
export function approvalRequested(postId: string, review: Review | undefined, state: PostState, now: Date): PostEvent[] {
  if (!needsReviewer(review)) return [];
  if (state.exists && state.approval?.state === 'pending') return [];
  return [{ type: 'PostApprovalRequested', data: { postId, requestedBy: review.by, requestedAt: now.toISOString() } }];
}

/** Publishing now (publishNow, or publishing a draft or scheduled post) skips the review: only a reviewer, or a post already approved. */
export function checkMayPublishNow(review: Review | undefined, state: PostState): void {
  if (!needsReviewer(review)) return;
  if (state.exists && state.approval?.state === 'approved') return;
  throw new DomainError('approval_required', 'this workspace requires approval: publishing now needs a key with the approve scope (or the post approved first)');
}

/** Whether the post is still a draft, or a scheduled post before its time: what a review can decide on. */
function checkReviewable(state: ExistingPost, now: Date): void {
  const beforeItsTime = state.status === 'scheduled' && new Date(state.data.scheduledAt!).getTime() > now.getTime();
  if (!state.approval) throw new DomainError('post_not_reviewable', 'the post is not held for review');
  if (state.status !== 'draft' && !beforeItsTime) {
    const why = state.status === 'scheduled' ? 'its scheduled time has passed' : `it is ${state.status}`;
    throw new DomainError('post_not_reviewable', `the post can no longer be reviewed: ${why}`);
  }
}

/** Approving an approved post again changes nothing; a rejected one may be approved (a reviewer changing their mind). */
export function decideApprove(command: ApprovePost, state: ExistingPost): PostEvent[] {
  checkReviewable(state, command.now);
  if (state.approval?.state === 'approved') return [];
  return [{ type: 'PostApproved', data: { postId: state.data.postId, approvedBy: command.by, note: command.note, approvedAt: command.now.toISOString() } }];
}

/** Rejecting a rejected post again changes nothing; an approved one may be rejected before its time. */
export function decideReject(command: RejectPost, state: ExistingPost): PostEvent[] {
  checkReviewable(state, command.now);
  if (state.approval?.state === 'rejected') return [];
  return [{ type: 'PostRejected', data: { postId: state.data.postId, rejectedBy: command.by, note: command.note, rejectedAt: command.now.toISOString() } }];
}

/** A scheduled post whose time came without an approval: the error it fails with (never published late). */
export function missedApproval(state: ExistingPost): { code: string; message: string; retryable: boolean } | null {
  if (!state.approval || state.approval.state === 'approved') return null;
  return { code: 'approval_missed', message: `not published: its scheduled time came while it was ${state.approval.state === 'pending' ? 'awaiting approval' : 'rejected'}`, retryable: false };
}

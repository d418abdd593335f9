import {
  AccountConnectedData,
  AccountDisconnectedData,
  AccountPublishedData,
  AccountPublishFailedData,
  AccountReauthRequiredData,
  CommentHiddenData,
  CommentReceivedData,
  CommentReclassifiedData,
  CommentRepliedData,
  CommentReplyDeletedData,
  CommentUnhiddenData,
  EventEnvelope,
  PostApprovalRequestedData,
  PostApprovedData,
  ItemMetricsObservedData,
  PostCreatedData,
  PostRejectedData,
  PostDeletedData,
  PostEditedData,
  PublishCompletedData,
  PublishResult,
  ScheduledPostExpiredData,
  TargetAccount,
  WEBHOOK_PAYLOAD_VERSION,
  WebhookEventType,
  WebhookPayload,
} from '@app/contracts';

/** A webhook event derived from one stored event. */
export interface WebhookEvent {
  type: WebhookEventType;
  data: unknown;
}

/** Stored event types whose webhook payload needs the events before it in its stream (account labels, results). */
const NEEDS_STREAM_HISTORY = new Set([
  'PostEdited',
  'PublishCompleted',
  'AccountPublished',
  'AccountPublishFailed',
  // A comment's later events name it by the service's id only: its receipt says which platform comment it is.
  'CommentReplied',
  'CommentHidden',
  'CommentUnhidden',
  'CommentReplyDeleted',
  'CommentReclassified',
]);

export function needsStreamHistory(storedType: string): boolean {
  return NEEDS_STREAM_HISTORY.has(storedType);
}

/** The accounts a post targets after `history` (its events up to the one mapped). */
function targetAccounts(history: readonly EventEnvelope[]): TargetAccount[] {
  let accounts: TargetAccount[] = [];
  for (const event of history) {
    if (event.type === 'PostCreated') accounts = (event.data as PostCreatedData).accounts;
    if (event.type === 'PostEdited') accounts = (event.data as PostEditedData).accounts ?? accounts;
  }
  return accounts;
}

function handleOf(accounts: readonly TargetAccount[], accountId: string): string {
  return accounts.find((account) => account.accountId === accountId)?.handle ?? accountId;
}

/** A result entry as the API's results list shows it (spec, PublishResult). */
function resultOf(event: EventEnvelope, accounts: readonly TargetAccount[]): PublishResult {
  if (event.type === 'AccountPublished') {
    const data = event.data as AccountPublishedData;
    return { platform: data.platform, accountId: data.accountId, accountLabel: handleOf(accounts, data.accountId), success: true, postId: data.platformPostId, url: data.url };
  }
  const data = event.data as AccountPublishFailedData;
  return { platform: data.platform, accountId: data.accountId, accountLabel: handleOf(accounts, data.accountId), success: false, error: data.error };
}

/** Each account's latest outcome, in the order the post targets them. */
function latestResults(history: readonly EventEnvelope[]): PublishResult[] {
  const accounts = targetAccounts(history);
  const latest = new Map<string, PublishResult>();
  for (const event of history) {
    if (event.type === 'AccountPublished' || event.type === 'AccountPublishFailed') {
      const result = resultOf(event, accounts);
      latest.set(result.accountId, result);
    }
  }
  return accounts.flatMap((account) => latest.get(account.accountId) ?? []);
}

/**
 * Which comment a comment event is about, as the API names it: `platformCommentId` (what
 * POST /api/v1/comments/reply, hide and unhide take as commentId, with `platform`), the post it
 * sits under, and the service's own id under a name no client mistakes for the one a reply takes.
 * From the comment's receipt in `history` (null fields when it is not there, as when only the type is asked).
 */
function commentRef(commentId: string, history: readonly EventEnvelope[]) {
  const received = receiptOf(history);
  return {
    platformCommentId: received?.platformCommentId ?? null,
    platform: received?.platform ?? null,
    postId: received?.postId ?? null,
    internalCommentId: commentId,
  };
}

/** The comment's CommentReceived in its stream's history, if there. */
function receiptOf(history: readonly EventEnvelope[]): CommentReceivedData | undefined {
  return history.find((event) => event.type === 'CommentReceived')?.data as CommentReceivedData | undefined;
}

function accountsEcho(accounts: readonly TargetAccount[]) {
  return accounts.map((account) => ({ accountId: account.accountId, platform: account.platform, account: account.handle }));
}

/**
 * The webhook event a stored event becomes, or null for the stored events clients
 * are not told about (PublishRequested, AccountPublishStarted, CommentReplyStarted, first comments, a
 * draft's creation or an edit that leaves it unscheduled). `history` holds the
 * events of the same stream up to and including `event` (only read for the types
 * needsStreamHistory names). Version 1 of every payload; see the README and the
 * OpenAPI `webhooks` section.
 */
export function webhookEventOf(event: EventEnvelope, history: readonly EventEnvelope[] = []): WebhookEvent | null {
  switch (event.type) {
    case 'PostCreated': {
      const data = event.data as PostCreatedData;
      if (data.scheduledAt === null) return null;
      return { type: 'post.scheduled', data: { postId: data.postId, scheduledAt: data.scheduledAt, accounts: accountsEcho(data.accounts) } };
    }
    case 'PostEdited': {
      const data = event.data as PostEditedData;
      if (typeof data.scheduledAt !== 'string') return null;
      return { type: 'post.scheduled', data: { postId: data.postId, scheduledAt: data.scheduledAt, accounts: accountsEcho(targetAccounts(history)) } };
    }
    case 'PublishCompleted': {
      const data = event.data as PublishCompletedData;
      const type = data.status === 'published' ? 'post.published' : data.status === 'partial' ? 'post.partial' : 'post.failed';
      return {
        type,
        data: { postId: data.postId, status: data.status, attempt: data.attempt, publishedAt: data.publishedAt, errorMessage: data.errorMessage, results: latestResults(history) },
      };
    }
    case 'ScheduledPostExpired': {
      const data = event.data as ScheduledPostExpiredData;
      // errorCode: schedule_expired (six hours late) or approval_missed (due while awaiting approval).
      return { type: 'post.failed', data: { postId: data.postId, status: 'failed', attempt: 0, publishedAt: null, errorMessage: data.error.message, errorCode: data.error.code, results: [] } };
    }
    case 'PostApprovalRequested': {
      const data = event.data as PostApprovalRequestedData;
      return { type: 'post.approval_requested', data: { postId: data.postId, approval: { state: 'pending', by: data.requestedBy, at: data.requestedAt, note: null } } };
    }
    case 'PostApproved': {
      const data = event.data as PostApprovedData;
      return { type: 'post.approved', data: { postId: data.postId, approval: { state: 'approved', by: data.approvedBy, at: data.approvedAt, note: data.note } } };
    }
    case 'PostRejected': {
      const data = event.data as PostRejectedData;
      return { type: 'post.rejected', data: { postId: data.postId, approval: { state: 'rejected', by: data.rejectedBy, at: data.rejectedAt, note: data.note } } };
    }
    case 'PostDeleted': {
      const data = event.data as PostDeletedData;
      return { type: 'post.deleted', data: { postId: data.postId, deletedAt: data.deletedAt } };
    }
    case 'AccountPublished':
    case 'AccountPublishFailed': {
      const data = event.data as AccountPublishedData | AccountPublishFailedData;
      const type = event.type === 'AccountPublished' ? 'post.account.published' : 'post.account.failed';
      return { type, data: { postId: data.postId, attempt: data.attempt, result: resultOf(event, targetAccounts(history)) } };
    }
    case 'AccountConnected': {
      const data = event.data as AccountConnectedData;
      return {
        type: 'account.connected',
        data: { accountId: data.accountId, platform: data.platform, account: data.handle, displayName: data.displayName, reconnected: data.reconnected },
      };
    }
    case 'AccountReauthRequired': {
      const data = event.data as AccountReauthRequiredData;
      return { type: 'account.reauth_required', data: { accountId: data.accountId, platform: data.platform, account: data.handle, reason: data.reason, message: data.message } };
    }
    case 'AccountDisconnected': {
      const data = event.data as AccountDisconnectedData;
      return { type: 'account.disconnected', data: { accountId: data.accountId, platform: data.platform, account: data.handle, revoked: data.revoked } };
    }
    case 'ItemMetricsObserved': {
      // Opt-in and chatty: sent only when a number moved since the item's previous observation.
      const data = event.data as ItemMetricsObservedData;
      if (data.changed.length === 0) return null;
      return {
        type: 'post.metrics_updated',
        data: {
          postId: data.postId,
          accountId: data.accountId,
          platform: data.platform,
          platformPostId: data.platformPostId,
          metrics: data.metrics,
          changed: data.changed,
          observedAt: data.observedAt,
        },
      };
    }
    case 'CommentReceived': {
      const data = event.data as CommentReceivedData;
      return {
        type: 'comment.received',
        data: {
          ...commentRef(data.commentId, [event]),
          accountId: data.accountId,
          parentCommentId: data.parentCommentId ?? null,
          author: data.author,
          text: data.text,
          url: data.url,
          commentedAt: data.commentedAt,
          sentiment: data.sentiment,
          tags: data.tags,
        },
      };
    }
    case 'CommentReplied': {
      const data = event.data as CommentRepliedData;
      return {
        type: 'comment.replied',
        data: { ...commentRef(data.commentId, history), accountId: data.accountId, repliedAs: data.repliedAs, replyId: data.replyPlatformId, message: data.message, repliedAt: data.repliedAt },
      };
    }
    case 'CommentHidden': {
      const data = event.data as CommentHiddenData;
      return { type: 'comment.hidden', data: { ...commentRef(data.commentId, history), accountId: data.accountId, hiddenAt: data.hiddenAt } };
    }
    case 'CommentUnhidden': {
      const data = event.data as CommentUnhiddenData;
      return { type: 'comment.unhidden', data: { ...commentRef(data.commentId, history), accountId: data.accountId, unhiddenAt: data.unhiddenAt } };
    }
    case 'CommentReplyDeleted': {
      const data = event.data as CommentReplyDeletedData;
      return { type: 'comment.reply_deleted', data: { ...commentRef(data.commentId, history), accountId: data.accountId, replyId: data.replyPlatformId, deletedAt: data.deletedAt } };
    }
    case 'CommentReclassified': {
      const data = event.data as CommentReclassifiedData;
      return {
        type: 'comment.reclassified',
        data: {
          ...commentRef(data.commentId, history),
          accountId: receiptOf(history)?.accountId ?? null,
          sentiment: data.sentiment,
          tags: data.tags,
          classifierVersion: data.classifierVersion,
          reclassifiedAt: data.reclassifiedAt,
        },
      };
    }
    default:
      return null;
  }
}

/** The body of every delivery of a stored event's webhook event. */
export function payloadOf(event: EventEnvelope, webhookEvent: WebhookEvent): WebhookPayload {
  return {
    type: webhookEvent.type,
    timestamp: event.occurredAt,
    version: WEBHOOK_PAYLOAD_VERSION,
    eventId: event.eventId,
    position: event.position,
    workspaceId: event.workspaceId,
    data: webhookEvent.data,
  };
}

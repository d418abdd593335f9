import { randomUUID } from 'node:crypto';
import {
  commentStreamId,
  CommentEvent,
  COMMENT_EVENT_VERSION,
  POST_EVENT_VERSION,
  PostEvent,
  postStreamId,
  TargetAccount,
} from '@app/contracts';
import { EventStore, RecordedEvent, START } from '@app/event-store';
import { until } from '@app/testing';

/**
 * Streams the read-model projections are tested with, appended to a real
 * event store the way the services write them: a post published to five
 * accounts (one failing) with an edit and a first comment, a post created and
 * deleted, a comment replied to twice, and the post's own first comment
 * ingested as a comment (which never gets a view).
 */
export interface SampleStreams {
  workspaceId: string;
  publishedPostId: string;
  deletedPostId: string;
  repliedCommentId: string;
  ownCommentId: string;
  /** Every event appended, in the feed's order. */
  events: RecordedEvent[];
}

const at = (second: number) => new Date(Date.UTC(2026, 10, 23, 12, 0, second, 123)).toISOString();

export async function appendSampleStreams(store: EventStore): Promise<SampleStreams> {
  const workspaceId = randomUUID();
  const [publishedPostId, deletedPostId, repliedCommentId, ownCommentId] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  const platforms = ['x', 'mastodon', 'bluesky', 'linkedin', 'threads'] as const;
  const accounts: TargetAccount[] = platforms.map((platform) => ({ accountId: randomUUID(), platform, handle: `@acme-${platform}` }));
  const metadata = { workspaceId, version: POST_EVENT_VERSION };
  let appended = 0;
  const post = (postId: string, event: PostEvent) => {
    appended++;
    return store.append(postStreamId(postId), [{ eventId: randomUUID(), type: event.type, data: event.data, metadata }], 'any');
  };
  const comment = (commentId: string, event: CommentEvent) => {
    appended++;
    return store.append(commentStreamId(commentId), [{ eventId: randomUUID(), type: event.type, data: event.data, metadata: { workspaceId, version: COMMENT_EVENT_VERSION } }], 'any');
  };
  const created = (postId: string, content: string): PostEvent => ({
    type: 'PostCreated',
    data: { postId, workspaceId, content, mediaUrls: [], firstComments: ['first!'], accounts, scheduledAt: null, createdAt: at(0), idempotency: null },
  });

  await post(publishedPostId, created(publishedPostId, 'Launch day'));
  await post(deletedPostId, created(deletedPostId, 'never mind'));
  await post(publishedPostId, { type: 'PostEdited', data: { postId: publishedPostId, content: 'Launch day: the app is here', editedAt: at(1) } });
  await post(deletedPostId, { type: 'PostDeleted', data: { postId: deletedPostId, deletedAt: at(2) } });
  await post(publishedPostId, {
    type: 'PublishRequested',
    data: { postId: publishedPostId, workspaceId, attempt: 1, accounts, content: 'Launch day: the app is here', mediaUrls: [], firstComments: ['first!'], requestedAt: at(3) },
  });
  for (const [i, account] of accounts.entries()) {
    if (account.platform === 'linkedin') {
      await post(publishedPostId, {
        type: 'AccountPublishFailed',
        data: { postId: publishedPostId, accountId: account.accountId, platform: account.platform, attempt: 1, error: { code: 'platform_unavailable', message: 'LinkedIn answered 503', retryable: true }, failedAt: at(4 + i) },
      });
    } else {
      await post(publishedPostId, {
        type: 'AccountPublished',
        data: { postId: publishedPostId, accountId: account.accountId, platform: account.platform, attempt: 1, platformPostId: `${account.platform}-item-${i}`, url: `https://${account.platform}.example/item/${i}`, reconciled: false, publishedAt: at(4 + i) },
      });
    }
  }
  await post(publishedPostId, { type: 'PublishCompleted', data: { postId: publishedPostId, attempt: 1, status: 'partial', publishedAt: at(4), errorMessage: '1 of 5 accounts failed', completedAt: at(10) } });
  await post(publishedPostId, { type: 'FirstCommentPosted', data: { postId: publishedPostId, accountId: accounts[0].accountId, index: 0, platformCommentId: 'x-own-comment', postedAt: at(11) } });

  const received = (commentId: string, platformCommentId: string, text: string): CommentEvent => ({
    type: 'CommentReceived',
    data: {
      commentId, workspaceId, platform: 'x', platformCommentId, platformPostId: 'x-item-0', postId: publishedPostId, accountId: accounts[0].accountId,
      author: '@fan', text, url: null, postTitle: 'Launch day', commentedAt: at(12), receivedAt: at(13), sentiment: 'positive', tags: ['praise'],
    },
  });
  await comment(repliedCommentId, received(repliedCommentId, 'x-fan-comment', 'Love it!'));
  await comment(ownCommentId, received(ownCommentId, 'x-own-comment', 'first!'));
  for (const n of [1, 2]) {
    await comment(repliedCommentId, {
      type: 'CommentReplied',
      data: { commentId: repliedCommentId, accountId: accounts[0].accountId, repliedAs: '@acme-x', replyPlatformId: `x-reply-${n}`, message: `Thank you ${n}`, repliedAt: at(13 + n) },
    });
  }
  // The inbox's moderation and re-classification: hidden, one of the two replies deleted, read anew.
  await comment(repliedCommentId, { type: 'CommentHidden', data: { commentId: repliedCommentId, accountId: accounts[0].accountId, hiddenAt: at(16) } });
  await comment(repliedCommentId, { type: 'CommentReplyDeleted', data: { commentId: repliedCommentId, accountId: accounts[0].accountId, replyPlatformId: 'x-reply-1', deletedAt: at(17) } });
  await comment(repliedCommentId, {
    type: 'CommentReclassified',
    data: { commentId: repliedCommentId, sentiment: 'neutral', tags: ['question'], classifierVersion: 'test', reclassifiedAt: at(18) },
  });
  // The feed shows an event once every older transaction on the cluster has ended (other test
  // files' included), so it is read until every event appended here is in it.
  let events: RecordedEvent[] = [];
  await until(async () => (events = (await store.readAll(START, 10_000)).filter((e) => e.metadata.workspaceId === workspaceId)).length === appended, 15_000);
  return { workspaceId, publishedPostId, deletedPostId, repliedCommentId, ownCommentId, events };
}

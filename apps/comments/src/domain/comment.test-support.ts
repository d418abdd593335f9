import { CommentEvent } from '@app/contracts';
import { deciderSpec } from '@app/testing';
import { ReceiveComment, RecordReply } from './comment.commands';
import { commentDecider } from './comment.decider';

/** Shared fixtures of the comment decider's specs (one spec file per decision family). */
export const spec = deciderSpec(commentDecider);

export const now = new Date('2030-01-01T12:00:00Z');

export function receive(overrides: Partial<ReceiveComment['comment']> = {}): ReceiveComment {
  return {
    type: 'ReceiveComment',
    comment: {
      commentId: 'c-1',
      workspaceId: 'w-1',
      platform: 'facebook',
      platformCommentId: '123_456',
      platformPostId: '99_123',
      postId: 'p-1',
      accountId: 'a-1',
      author: 'Jane',
      text: 'Love it!',
      url: 'https://www.facebook.com/99/posts/123?comment_id=123_456',
      postTitle: 'Launch day',
      commentedAt: '2030-01-01T11:59:00.000Z',
      sentiment: 'positive',
      tags: ['praise'],
      ...overrides,
    },
    now,
  };
}

/** The history of a comment received with the defaults of `receive`. */
export const received: CommentEvent[] = spec.given([]).when(receive()).events();

export const reply = (replyPlatformId = 'r-1'): RecordReply => ({ type: 'RecordReply', accountId: 'a-1', repliedAs: '@acme', replyPlatformId, message: 'Thanks!', replyKey: 'k-1', reconciled: false, now });

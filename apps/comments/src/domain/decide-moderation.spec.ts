import { CommentEvent } from '@app/contracts';
import { DeleteReply, SetCommentHidden } from './comment.commands';
import { now, receive, received, reply, spec } from './comment.test-support';

const hide = (accountId = 'a-1'): SetCommentHidden => ({ type: 'HideComment', accountId, now });
const unhide = (accountId = 'a-1'): SetCommentHidden => ({ type: 'UnhideComment', accountId, now });
const deleteReply = (replyPlatformId = 'r-1'): DeleteReply => ({ type: 'DeleteReply', replyPlatformId, now });

const hidden: CommentEvent = { type: 'CommentHidden', data: { commentId: 'c-1', accountId: 'a-1', hiddenAt: now.toISOString() } };
const replied = (replyPlatformId = 'r-1', accountId = 'a-1'): CommentEvent => ({
  type: 'CommentReplied',
  data: { commentId: 'c-1', accountId, repliedAs: '@acme', replyPlatformId, message: 'Thanks!', repliedAt: now.toISOString() },
});

describe('Comment decider: HideComment / UnhideComment', () => {
  it('given a shown comment, when it is hidden, then CommentHidden names the account that hid it', () => {
    spec.given(received).when(hide('a-2')).then([{ type: 'CommentHidden', data: { commentId: 'c-1', accountId: 'a-2', hiddenAt: now.toISOString() } }]);
  });

  it('given a hidden comment, when it is hidden again, then nothing (a success with no event)', () => {
    spec.given([...received, hidden]).when(hide()).thenNothing();
  });

  it('given a hidden comment, when it is unhidden, then CommentUnhidden; the state is shown again', () => {
    const unhiding = spec.given([...received, hidden]).when(unhide());
    unhiding.then([{ type: 'CommentUnhidden', data: { commentId: 'c-1', accountId: 'a-1', unhiddenAt: now.toISOString() } }]);
    expect(unhiding.stateAfter()).toMatchObject({ hidden: false });
  });

  it('given a shown comment, when it is unhidden, then nothing', () => {
    spec.given(received).when(unhide()).thenNothing();
  });

  it('given nothing, when a comment is hidden, then unknown_comment', () => {
    spec.given([]).when(hide()).thenRefuses('unknown_comment');
  });

  // COMMENT_CAPABILITIES: LinkedIn's and Mastodon's APIs have no way to hide someone else's comment.
  it.each(['linkedin', 'mastodon', 'tiktok', 'pinterest'] as const)('given a comment on %s, when it is hidden, then comment_action_not_supported', (platform) => {
    const error = spec.given(spec.given([]).when(receive({ platform })).events()).when(hide()).thenRefuses('comment_action_not_supported');
    expect(error.extra.details).toEqual({ platform, action: 'hide' });
  });
});

describe('Comment decider: hiding a Threads reply, top-level only', () => {
  // Threads hides top-level replies only (https://developers.facebook.com/docs/threads/reply-management).
  const onThreads = (parentCommentId: string | null) => spec.given([]).when(receive({ platform: 'threads', parentCommentId })).events();

  it('given a reply to the post itself on Threads, when it is hidden, then CommentHidden', () => {
    expect(spec.given(onThreads(null)).when(hide()).events()).toEqual([expect.objectContaining({ type: 'CommentHidden' })]);
  });

  it.each([
    ['hidden', hide()],
    ['unhidden', unhide()],
  ])('given a nested reply on Threads, when it is %s, then comment_action_not_supported', (_name, command) => {
    const error = spec.given(onThreads('1790001')).when(command).thenRefuses('comment_action_not_supported');
    expect(error.extra.details).toEqual({ platform: 'threads', action: 'hide' });
    expect(error.message).toContain('that reply to another comment');
  });

  it('given a nested reply on a platform that hides any comment (Facebook), when it is hidden, then CommentHidden', () => {
    const nested = spec.given([]).when(receive({ parentCommentId: '123_455' })).events();
    expect(spec.given(nested).when(hide()).events()).toEqual([expect.objectContaining({ type: 'CommentHidden' })]);
  });
});

describe('Comment decider: DeleteReply', () => {
  it("given the workspace's reply, when it is deleted, then CommentReplyDeleted names the account that wrote it", () => {
    spec
      .given([...received, replied('r-1', 'a-7')])
      .when(deleteReply())
      .then([{ type: 'CommentReplyDeleted', data: { commentId: 'c-1', accountId: 'a-7', replyPlatformId: 'r-1', deletedAt: now.toISOString() } }]);
  });

  it('given a deleted reply, when it is deleted again, then nothing; the other reply stays live', () => {
    const deleted = spec.given([...received, replied('r-1'), replied('r-2')]).when(deleteReply('r-1'));
    expect(deleted.stateAfter()).toMatchObject({ replies: [{ replyPlatformId: 'r-1', deleted: true }, { replyPlatformId: 'r-2', deleted: false }] });
    spec.given(deleted.history()).when(deleteReply('r-1')).thenNothing();
  });

  it('given a reply that is not the workspace’s (another comment, or none), when it is deleted, then unknown_reply', () => {
    const error = spec.given([...received, replied('r-1')]).when(deleteReply('someone-else')).thenRefuses('unknown_reply');
    expect(error.extra.details).toEqual({ replyId: 'someone-else' });
  });

  it('given nothing, when a reply is deleted, then unknown_comment', () => {
    spec.given([]).when(deleteReply()).thenRefuses('unknown_comment');
  });

  it('given a comment on a platform without comment endpoints (TikTok), when a reply is deleted, then comment_action_not_supported', () => {
    spec.given(spec.given([]).when(receive({ platform: 'tiktok' })).events()).when(deleteReply()).thenRefuses('comment_action_not_supported');
  });

  it('keeps the reply rule working after a deletion: a new reply is recorded', () => {
    const history = spec.given([...received, replied('r-1')]).when(deleteReply()).history();
    expect(spec.given(history).when(reply('r-2')).events()).toHaveLength(1);
  });
});

import { DomainError } from '@app/contracts';
import { commentDecider } from './comment.decider';
import { StartReply } from './comment.commands';
import { now, received, reply, spec } from './comment.test-support';
import { checkReply, checkReplyMessage } from './decide-reply';

describe('Comment decider: RecordReply', () => {
  it('given a stored comment, when a reply is recorded, then CommentReplied; a second reply is recorded too', () => {
    const first = spec.given(received).when(reply());
    first.then([{ type: 'CommentReplied', data: { commentId: 'c-1', accountId: 'a-1', repliedAs: '@acme', replyPlatformId: 'r-1', message: 'Thanks!', repliedAt: now.toISOString(), replyKey: 'k-1' } }]);
    expect(spec.given(first.history()).when(reply('r-2')).stateAfter()).toMatchObject({ exists: true, replies: [{ replyPlatformId: 'r-1' }, { replyPlatformId: 'r-2' }] });
  });

  it('given a reply already recorded, when the same platform id is recorded again, then nothing', () => {
    spec.given(spec.given(received).when(reply()).history()).when(reply()).then([]);
  });

  it('given nothing, when a reply is recorded, then unknown_comment', () => {
    spec.given([]).when(reply()).thenRefuses('unknown_comment');
  });

  it('refuses to rebuild a reply without its comment', () => {
    const [replied] = spec.given(received).when(reply()).events();
    expect(() => commentDecider.evolve(commentDecider.initialState(), replied)).toThrow('CommentReplied before CommentReceived');
  });
});

describe('Comment decider: StartReply (the boundary before the platform call)', () => {
  const start = (replyKey: string, message = 'Thanks!', accountId = 'a-1'): StartReply => ({ type: 'StartReply', accountId, message, replyKey, now });
  const started = spec.given(received).when(start('k-1'));

  it('given a stored comment, when a reply starts, then CommentReplyStarted, and the comment holds it as started', () => {
    started.then([{ type: 'CommentReplyStarted', data: { commentId: 'c-1', replyKey: 'k-1', accountId: 'a-1', message: 'Thanks!', startedAt: now.toISOString() } }]);
    expect(started.stateAfter()).toMatchObject({ startedReplies: [{ replyKey: 'k-1', accountId: 'a-1', message: 'Thanks!' }] });
  });

  it('given a started reply never recorded, when the same account starts the same text, then nothing: the retry continues the first', () => {
    spec.given(started.history()).when(start('k-2')).then([]);
  });

  it('given a started reply, when another text or another account starts, then a new start', () => {
    expect(spec.given(started.history()).when(start('k-2', 'Welcome!')).events()).toHaveLength(1);
    expect(spec.given(started.history()).when(start('k-3', 'Thanks!', 'a-2')).events()).toHaveLength(1);
  });

  it('given a started reply recorded since, when the same text starts again, then a new start (a second reply, not a retry)', () => {
    const recorded = spec.given(started.history()).when(reply());
    expect(recorded.stateAfter()).toMatchObject({ startedReplies: [] });
    spec.given(recorded.history()).when(start('k-2')).then([
      { type: 'CommentReplyStarted', data: { commentId: 'c-1', replyKey: 'k-2', accountId: 'a-1', message: 'Thanks!', startedAt: now.toISOString() } },
    ]);
  });

  it('given nothing, when a reply starts, then unknown_comment', () => {
    spec.given([]).when(start('k-1')).thenRefuses('unknown_comment');
  });
});

/** checkReply and checkReplyMessage run before the platform is called: not decisions on events, so plain checks. */
describe('reply rules', () => {
  const stored = spec.given(received).state;
  const account = { accountId: 'a-2', platform: 'facebook' as const, connected: true };
  const refusal = (code: string) => expect.objectContaining({ constructor: DomainError, code });

  it('accept a connected account on the comment platform', () => {
    expect(() => checkReply(stored, account)).not.toThrow();
  });

  it.each([
    ['a comment not stored', commentDecider.initialState(), account, 'unknown_comment'],
    ['an account on another platform, even a connected one', stored, { ...account, platform: 'instagram' as const }, 'account_platform_mismatch'],
    ['a disconnected account', stored, { ...account, connected: false }, 'account_disconnected'],
  ])('refuse %s', (_name, state, replier, code) => {
    expect(() => checkReply(state, replier)).toThrow(refusal(code));
  });

  it('check the platform before the connection: a disconnected account on another platform is a platform mismatch', () => {
    expect(() => checkReply(stored, { ...account, platform: 'x', connected: false })).toThrow(refusal('account_platform_mismatch'));
  });

  it.each([
    ['empty', ''],
    ['only blanks', '   '],
    ['2,201 characters', 'x'.repeat(2_201)],
  ])('refuse a message that is %s', (_name, message) => {
    expect(() => checkReplyMessage(message)).toThrow(refusal('reply_message_invalid'));
  });

  it('accept 2,200 characters, counted as code points (emoji are one)', () => {
    expect(() => checkReplyMessage('x'.repeat(2_200))).not.toThrow();
    expect(() => checkReplyMessage('😀'.repeat(2_200))).not.toThrow();
  });
});

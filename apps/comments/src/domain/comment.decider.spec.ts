import { CommentEvent, DomainError } from '@app/contracts';
import { checkReply, checkReplyMessage, CommentCommand, CommentState, decide, evolve, initialState, ReceiveComment } from './comment.decider';

const now = new Date('2030-01-01T12:00:00Z');

function receive(overrides: Partial<ReceiveComment['comment']> = {}): ReceiveComment {
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

const reply = (replyPlatformId = 'r-1'): CommentCommand => ({ type: 'RecordReply', accountId: 'a-1', repliedAs: '@acme', replyPlatformId, message: 'Thanks!', now });

function given(events: CommentEvent[]): CommentState {
  return events.reduce(evolve, initialState());
}

function thenError(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('Comment decider', () => {
  it('given nothing, when a comment is received, then CommentReceived carries it, its classification and the receipt time', () => {
    expect(decide(receive(), initialState())).toEqual([
      { type: 'CommentReceived', data: { ...receive().comment, commentedAt: '2030-01-01T11:59:00.000Z', receivedAt: now.toISOString() } },
    ]);
  });

  it('takes the receipt time as commentedAt when the platform gives none', () => {
    const [event] = decide(receive({ commentedAt: null }), initialState());
    expect(event.data).toMatchObject({ commentedAt: now.toISOString(), receivedAt: now.toISOString() });
  });

  it('given the comment is stored, when it is received again (a second poll, a webhook), then nothing is decided', () => {
    const state = given(decide(receive(), initialState()));
    expect(decide(receive({ text: 'edited since' }), state)).toEqual([]);
  });

  it('given a stored comment, when a reply is recorded, then CommentReplied; a second reply is recorded too', () => {
    const state = given(decide(receive(), initialState()));
    const events = decide(reply(), state);
    expect(events).toEqual([{ type: 'CommentReplied', data: { commentId: 'c-1', accountId: 'a-1', repliedAs: '@acme', replyPlatformId: 'r-1', message: 'Thanks!', repliedAt: now.toISOString() } }]);
    const history = [...decide(receive(), initialState()), ...events];
    const second = decide(reply('r-2'), given(history));
    expect(given([...history, ...second])).toMatchObject({ exists: true, replies: ['r-1', 'r-2'] });
  });

  it('given nothing, when a reply is recorded, then unknown_comment', () => {
    expect(thenError(() => decide(reply(), initialState())).code).toBe('unknown_comment');
  });

  it('refuses to rebuild a reply without its comment', () => {
    expect(() => evolve(initialState(), decide(reply(), given(decide(receive(), initialState())))[0])).toThrow('CommentReplied before CommentReceived');
  });
});

describe('reply rules', () => {
  const stored = () => given(decide(receive(), initialState()));
  const account = { accountId: 'a-2', platform: 'facebook' as const, connected: true };

  it('accept a connected account on the comment platform', () => {
    expect(() => checkReply(stored(), account)).not.toThrow();
  });

  it.each([
    ['a comment not stored', initialState(), account, 'unknown_comment'],
    ['an account on another platform, even a connected one', undefined, { ...account, platform: 'instagram' as const }, 'account_platform_mismatch'],
    ['a disconnected account', undefined, { ...account, connected: false }, 'account_disconnected'],
  ])('refuse %s', (_name, state, replier, code) => {
    expect(thenError(() => checkReply(state ?? stored(), replier)).code).toBe(code);
  });

  it('check the platform before the connection: a disconnected account on another platform is a platform mismatch', () => {
    expect(thenError(() => checkReply(stored(), { ...account, platform: 'x', connected: false })).code).toBe('account_platform_mismatch');
  });

  it.each([
    ['empty', ''],
    ['only blanks', '   '],
    ['2,201 characters', 'x'.repeat(2_201)],
  ])('refuse a message that is %s', (_name, message) => {
    expect(thenError(() => checkReplyMessage(message))).toMatchObject({ code: 'reply_message_invalid' });
  });

  it('accept 2,200 characters, counted as code points (emoji are one)', () => {
    expect(() => checkReplyMessage('x'.repeat(2_200))).not.toThrow();
    expect(() => checkReplyMessage('😀'.repeat(2_200))).not.toThrow();
  });
});

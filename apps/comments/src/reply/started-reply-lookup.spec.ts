import { PlatformComment, PlatformIdentity } from '@app/platforms';
import { findStartedReply } from './started-reply-lookup';

describe('findStartedReply: the reply a lost answer left unrecorded, on the platform', () => {
  const identity: PlatformIdentity = { platformAccountId: '17841400000', handle: '@acme', displayName: 'Acme Inc', instanceUrl: null, attributes: {} };
  const lookup = { platformCommentId: 'c-1', message: 'Thanks, see https://acme.example/faq  for more', identity, recordedReplyIds: [] as string[] };
  const comment = (overrides: Partial<PlatformComment>): PlatformComment => ({
    platformCommentId: 'r-1', author: 'Acme Inc', authorPlatformId: '17841400000', text: lookup.message, createdAt: '2030-01-01T12:00:00Z', url: null, parentPlatformPostId: 'p-1', inReplyToCommentId: 'c-1', ...overrides,
  });

  it('finds a direct reply to the comment by the account with the text sent (links and spacing rewritten by the platform)', () => {
    const found = findStartedReply([comment({ platformCommentId: 'other', author: 'fan', authorPlatformId: '999' }), comment({ text: 'Thanks, see https://t.co/x1 for more' })], lookup);
    expect(found?.platformCommentId).toBe('r-1');
  });

  it('knows the account by its platform id, whatever name the listing shows (renamed since)', () => {
    expect(findStartedReply([comment({ author: 'Acme Rebranded' })], lookup)?.platformCommentId).toBe('r-1');
  });

  it('where the listing names authors by handle only (Threads), knows the account by its handle, with or without @', () => {
    expect(findStartedReply([comment({ author: 'ACME', authorPlatformId: null })], lookup)?.platformCommentId).toBe('r-1');
  });

  it.each([
    ['another author', { author: 'fan', authorPlatformId: '999' }],
    ['another account with the same display name', { author: 'Acme Inc', authorPlatformId: '999' }],
    ['a display name where only a handle would do', { author: 'Acme Inc', authorPlatformId: null }],
    ['another text', { text: 'Thanks!' }],
    ['a reply to another comment', { inReplyToCommentId: 'c-2' }],
    ['a comment on the post itself', { inReplyToCommentId: null }],
  ])('does not take %s for it', (_name, overrides) => {
    expect(findStartedReply([comment(overrides)], lookup)).toBeNull();
  });

  it('never claims a reply already recorded; of several, the oldest', () => {
    const comments = [comment({ platformCommentId: 'r-1' }), comment({ platformCommentId: 'r-2' }), comment({ platformCommentId: 'r-3' })];
    expect(findStartedReply(comments, { ...lookup, recordedReplyIds: ['r-1'] })?.platformCommentId).toBe('r-2');
  });
});

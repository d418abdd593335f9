import { closestName } from './closest-name';

const CREATE_FIELDS = ['content', 'accounts', 'accountIds', 'platforms', 'scheduledAt', 'publishNow', 'mediaUrls', 'altText', 'firstComments', 'overrides', 'platformOptions', 'thread', 'autoSplit'];
const COMMENT_QUERY = ['platform', 'sentiment', 'unreplied', 'limit', 'cursor'];

describe('the field a client most likely meant', () => {
  it.each([
    ['publish_now', 'publishNow'],
    ['PublishNow', 'publishNow'],
    ['publishnow', 'publishNow'],
    ['scheduled_at', 'scheduledAt'],
    ['schedueldAt', 'scheduledAt'],
    ['contnet', 'content'],
    ['account', 'accounts'],
    ['accountID', 'accountIds'],
    ['first_comments', 'firstComments'],
    ['media_urls', 'mediaUrls'],
    ['alt_text', 'altText'],
  ])('%s → %s', (unknown, meant) => {
    expect(closestName(unknown, CREATE_FIELDS)).toBe(meant);
  });

  it.each([['tag'], ['postId'], ['q'], ['sort']])('no hint for %s on the comments list: it is another word, not a typo', (unknown) => {
    expect(closestName(unknown, COMMENT_QUERY)).toBeNull();
  });

  it('hints at a short name only for one edit', () => {
    expect(closestName('limt', COMMENT_QUERY)).toBe('limit');
    expect(closestName('lim', COMMENT_QUERY)).toBeNull();
    expect(closestName('cursr', COMMENT_QUERY)).toBe('cursor');
  });

  it('has nothing to offer where nothing is taken', () => {
    expect(closestName('content', [])).toBeNull();
  });
});

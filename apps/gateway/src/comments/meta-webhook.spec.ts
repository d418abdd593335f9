import { commentsInMetaWebhook, isValidMetaSignature, metaSignature } from './meta-webhook';

describe('Meta webhook signature', () => {
  const body = Buffer.from('{"object":"page","entry":[]}');

  it('accepts sha256=<hex HMAC-SHA256 of the raw body with the app secret>, in either case of hex', () => {
    const signature = metaSignature(body, 'secret');
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(isValidMetaSignature(body, signature, 'secret')).toBe(true);
    expect(isValidMetaSignature(body, signature.toUpperCase().replace('SHA256=', 'sha256='), 'secret')).toBe(true);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['the sha1 header format', `sha1=${'a'.repeat(40)}`],
    ['not hex', `sha256=${'z'.repeat(64)}`],
    ['another secret', metaSignature(body, 'other')],
    ['another body', metaSignature(Buffer.from('{}'), 'secret')],
  ])('refuses a signature that is %s', (_name, header) => {
    expect(isValidMetaSignature(body, header, 'secret')).toBe(false);
  });
});

describe('comments in a Meta webhook payload', () => {
  it('reads new comments of a Page feed, with the post, author, text, time and permalink', () => {
    const payload = {
      object: 'page',
      entry: [
        {
          id: '111',
          changes: [
            { field: 'feed', value: { item: 'comment', verb: 'add', comment_id: '222_333', post_id: '111_222', message: 'Nice!', from: { name: 'Ann' }, created_time: 1_700_000_000 } },
            { field: 'feed', value: { item: 'comment', verb: 'edited', comment_id: '222_334', post_id: '111_222', message: 'edited' } },
            { field: 'feed', value: { item: 'reaction', verb: 'add', post_id: '111_222' } },
          ],
        },
      ],
    };
    expect(commentsInMetaWebhook(payload)).toEqual([
      {
        platform: 'facebook',
        platformPostId: '111_222',
        comments: [{ platformCommentId: '222_333', author: 'Ann', text: 'Nice!', createdAt: '2023-11-14T22:13:20.000Z', url: 'https://www.facebook.com/111/posts/222?comment_id=222_333' }],
      },
    ]);
  });

  it('reads Instagram comments with their media', () => {
    const payload = { object: 'instagram', entry: [{ id: '17841', changes: [{ field: 'comments', value: { id: '1790', text: 'where to buy?', from: { id: '9', username: 'bo' }, media: { id: '1801' } } }] }] };
    expect(commentsInMetaWebhook(payload)).toEqual([
      { platform: 'instagram', platformPostId: '1801', comments: [{ platformCommentId: '1790', author: 'bo', text: 'where to buy?', createdAt: null, url: null }] },
    ]);
  });

  it.each([
    ['another object', { object: 'user', entry: [] }],
    ['another field', { object: 'instagram', entry: [{ changes: [{ field: 'mentions', value: { id: '1', media: { id: '2' } } }] }] }],
    ['a comment without its post', { object: 'page', entry: [{ changes: [{ field: 'feed', value: { item: 'comment', verb: 'add', comment_id: '1' } }] }] }],
    ['not an object', 'hello'],
  ])('finds nothing in %s', (_name, payload) => {
    expect(commentsInMetaWebhook(payload)).toEqual([]);
  });
});

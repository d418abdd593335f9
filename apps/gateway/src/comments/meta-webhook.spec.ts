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
            { field: 'feed', value: { item: 'comment', verb: 'add', comment_id: '222_333', post_id: '111_222', parent_id: '111_222', message: 'Nice!', from: { name: 'Ann' }, created_time: 1_700_000_000 } },
            { field: 'feed', value: { item: 'comment', verb: 'edited', comment_id: '222_334', post_id: '111_222', message: 'edited' } },
            { field: 'feed', value: { item: 'reaction', verb: 'add', post_id: '111_222' } },
          ],
        },
      ],
    };
    expect(commentsInMetaWebhook(payload)).toEqual({
      commands: [
        {
          platform: 'facebook',
          platformPostId: '111_222',
          comments: [
            { platformCommentId: '222_333', author: 'Ann', text: 'Nice!', createdAt: '2023-11-14T22:13:20.000Z', url: 'https://www.facebook.com/111/posts/222?comment_id=222_333', parentCommentId: null },
          ],
        },
      ],
      skipped: 0,
    });
  });

  // Webhooks for Pages, feed (https://developers.facebook.com/docs/pages-api/webhooks-for-pages): parent_id is the post, or the comment replied to.
  it('reads a reply to a comment on a Page feed with the comment it replies to', () => {
    const reply = { item: 'comment', verb: 'add', comment_id: '222_335', post_id: '111_222', parent_id: '222_333', message: 'Same here', from: { name: 'Bo' }, created_time: 1_700_000_000 };
    const { commands } = commentsInMetaWebhook({ object: 'page', entry: [{ id: '111', changes: [{ field: 'feed', value: reply }] }] });
    expect(commands[0].comments[0]).toMatchObject({ platformCommentId: '222_335', parentCommentId: '222_333' });
  });

  it('reads Instagram comments with their media', () => {
    const payload = { object: 'instagram', entry: [{ id: '17841', changes: [{ field: 'comments', value: { id: '1790', text: 'where to buy?', from: { id: '9', username: 'bo' }, media: { id: '1801' } } }] }] };
    expect(commentsInMetaWebhook(payload)).toEqual({
      commands: [{ platform: 'instagram', platformPostId: '1801', comments: [{ platformCommentId: '1790', author: 'bo', text: 'where to buy?', createdAt: null, url: null, parentCommentId: null }] }],
      skipped: 0,
    });
  });

  // Instagram webhooks reference, comments (https://developers.facebook.com/docs/graph-api/webhooks/reference/instagram): parent_id on a reply.
  it('reads an Instagram reply with the comment it replies to', () => {
    const value = { id: '1791', parent_id: '1790', text: 'in the shop', from: { id: '8', username: 'cy' }, media: { id: '1801' } };
    const { commands } = commentsInMetaWebhook({ object: 'instagram', entry: [{ id: '17841', changes: [{ field: 'comments', value }] }] });
    expect(commands[0].comments[0]).toMatchObject({ platformCommentId: '1791', parentCommentId: '1790' });
  });

  it.each([
    ['another object', { object: 'user', entry: [] }],
    ['another field', { object: 'instagram', entry: [{ changes: [{ field: 'mentions', value: { id: '1', media: { id: '2' } } }] }] }],
    ['a comment without its post', { object: 'page', entry: [{ changes: [{ field: 'feed', value: { item: 'comment', verb: 'add', comment_id: '1' } }] }] }],
    ['not an object', 'hello'],
  ])('finds nothing in %s', (_name, payload) => {
    expect(commentsInMetaWebhook(payload)).toEqual({ commands: [], skipped: 0 });
  });

  const feedComment = (id: string, extra: Record<string, unknown> = {}) => ({
    field: 'feed',
    value: { item: 'comment', verb: 'add', comment_id: id, post_id: '111_222', message: `comment ${id}`, from: { name: 'Ann' }, created_time: 1_700_000_000, ...extra },
  });

  it.each([
    ['a created_time no date can be made of', { created_time: -1e20 }],
    ['a created_time past year 9999', { created_time: 1e300 }],
    ['a negative created_time', { created_time: -1 }],
    ['a message with NUL', { message: 'a\u0000b' }],
    ['a message with a lone surrogate', { message: 'a\uD800' }],
    ['a comment id with a lone surrogate (would break encodeURIComponent)', { comment_id: '\uDC00' }],
    ['an author name with NUL', { from: { name: '\u0000' } }],
  ])('skips only the entry with %s and keeps the comments after it', (_name, bad) => {
    const payload = { object: 'page', entry: [{ id: '111', changes: [feedComment('1'), feedComment('2', bad), feedComment('3')] }, { id: '111', changes: [feedComment('4')] }] };
    const { commands, skipped } = commentsInMetaWebhook(payload);
    expect(skipped).toBe(1);
    expect(commands.map((command) => command.comments[0].platformCommentId)).toEqual(['1', '3', '4']);
  });

  it('skips an Instagram comment whose text storage cannot hold', () => {
    const change = (id: string, text: string) => ({ field: 'comments', value: { id, text, from: { username: 'bo' }, media: { id: '1801' } } });
    const { commands, skipped } = commentsInMetaWebhook({ object: 'instagram', entry: [{ changes: [change('1', 'fine'), change('2', 'bad\u0000')] }] });
    expect({ ids: commands.map((command) => command.comments[0].platformCommentId), skipped }).toEqual({ ids: ['1'], skipped: 1 });
  });
});

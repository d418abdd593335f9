import { ErrorCode, PostCreatedData } from '@app/contracts';
import { CreatePost } from './post.commands';
import { account, create, createdBy, now, spec } from './post.test-support';

describe('Post decider: CreatePost', () => {
  it('creates a draft when neither scheduledAt nor publishNow is given', () => {
    const when = spec.given([]).when(create());
    when.then([
      {
        type: 'PostCreated',
        data: expect.objectContaining({ postId: 'p-1', content: 'hello', scheduledAt: null, accounts: [account], createdAt: now.toISOString() }),
      },
    ]);
    expect(when.stateAfter()).toMatchObject({ exists: true, status: 'draft', version: 1 });
  });

  it('creates a scheduled post, normalising scheduledAt to UTC', () => {
    const when = spec.given([]).when(create({ scheduledAt: '2030-01-01T14:30:00+02:00' }));
    when.then([{ type: 'PostCreated', data: expect.objectContaining({ scheduledAt: '2030-01-01T12:30:00.000Z' }) }]);
    expect(when.stateAfter()).toMatchObject({ status: 'scheduled' });
  });

  it('accepts media without content, and content of exactly 10,000 characters', () => {
    expect(createdBy(create({ content: undefined, mediaUrls: ['https://cdn.example.com/a.png'] }))).toHaveLength(1);
    expect(createdBy(create({ content: 'x'.repeat(10_000) }))).toHaveLength(1);
  });

  it('counts characters as code points: 10,000 emoji fit', () => {
    expect(createdBy(create({ content: '😀'.repeat(10_000) }))).toHaveLength(1);
  });

  const refusals: Array<[string, CreatePost, ErrorCode]> = [
    ['no content and no media', create({ content: undefined }), 'content_required'],
    ['blank content and no media', create({ content: '   ' }), 'content_required'],
    ['content over 10,000 characters', create({ content: 'x'.repeat(10_001) }), 'content_too_long'],
    ['11 media urls', create({ mediaUrls: Array.from({ length: 11 }, (_, i) => `https://cdn.example.com/${i}.png`) }), 'too_many_media_urls'],
    ['a relative media path', create({ mediaUrls: ['/uploads/a.png'] }), 'invalid_media_url'],
    ['an http media url', create({ mediaUrls: ['http://cdn.example.com/a.png'] }), 'invalid_media_url'],
    ['a media url with no host', create({ mediaUrls: ['https://'] }), 'invalid_media_url'],
    ['6 first comments', create({ firstComments: ['1', '2', '3', '4', '5', '6'] }), 'too_many_first_comments'],
    ['a first comment over 2,200 characters', create({ firstComments: ['x'.repeat(2_201)] }), 'first_comment_invalid'],
    ['an empty first comment', create({ firstComments: [''] }), 'first_comment_invalid'],
    ['scheduledAt with publishNow', create({ scheduledAt: '2030-01-02T00:00:00Z', publishNow: true }), 'scheduled_and_publish_now'],
    ['scheduledAt not a datetime', create({ scheduledAt: 'tomorrow' }), 'invalid_scheduled_at'],
    ['scheduledAt without a zone', create({ scheduledAt: '2030-01-02T00:00:00' }), 'invalid_scheduled_at'],
    ['scheduledAt on a day that does not exist', create({ scheduledAt: '2030-02-31T00:00:00Z' }), 'invalid_scheduled_at'],
    ['scheduledAt in the past', create({ scheduledAt: '2029-12-31T23:59:59Z' }), 'scheduled_at_in_past'],
    ['scheduledAt equal to now', create({ scheduledAt: '2030-01-01T12:00:00Z' }), 'scheduled_at_in_past'],
    ['no accounts', create({ accounts: [] }), 'accounts_required'],
    ['11 accounts', create({ accounts: Array.from({ length: 11 }, (_, i) => ({ ...account, accountId: `a-${i}` })) }), 'too_many_accounts'],
  ];
  it.each(refusals)('refuses %s', (_name, command, code) => {
    spec.given([]).when(command).thenRefuses(code);
  });

  it('accepts exactly 10 accounts, 10 media urls and 5 first comments of 2,200 characters', () => {
    const events = createdBy(
      create({
        accounts: Array.from({ length: 10 }, (_, i) => ({ ...account, accountId: `a-${i}` })),
        mediaUrls: Array.from({ length: 10 }, (_, i) => `https://cdn.example.com/${i}.png`),
        firstComments: Array.from({ length: 5 }, () => 'y'.repeat(2_200)),
      }),
    );
    expect(events).toHaveLength(1);
  });

  it('with publishNow, also asks for publication to every account (attempt 1)', () => {
    const when = spec.given([]).when(create({ publishNow: true }));
    when.then([
      { type: 'PostCreated', data: expect.anything() },
      { type: 'PublishRequested', data: expect.objectContaining({ attempt: 1, accounts: [account], content: 'hello' }) },
    ]);
    expect(when.stateAfter()).toMatchObject({ status: 'publishing', attempt: 1 });
  });

  describe('with an Idempotency-Key', () => {
    const idempotency = { key: 'k-1', requestHash: 'h-1' };
    const created = createdBy(create({ idempotency }));

    it('answers a retry of the same request with no new event', () => {
      spec.given(created).when(create({ idempotency })).thenNothing();
    });

    it('refuses the same key with a different request', () => {
      spec.given(created).when(create({ idempotency: { key: 'k-1', requestHash: 'h-2' } })).thenRefuses('idempotency_key_reused');
    });
  });
});

describe('Post decider: alt text on create', () => {
  const photos = ['https://cdn.example.com/a.png', 'https://cdn.example.com/b.png'];
  const withPhotos = (altText: Array<string | null>) => create({ mediaUrls: photos, altText });

  it('keeps alt text per media item, a blank entry as null, and hands it to the publication', () => {
    spec
      .given([])
      .when({ ...withPhotos(['A red bicycle', '  ']), publishNow: true })
      .then([
        { type: 'PostCreated', data: expect.objectContaining({ mediaUrls: photos, altText: ['A red bicycle', null] }) },
        { type: 'PublishRequested', data: expect.objectContaining({ mediaUrls: photos, altText: ['A red bicycle', null] }) },
      ]);
  });

  it.each([[[]], [[null, '']], [['', ' ']]])('stores "none" as []: altText %j', (altText) => {
    spec.given([]).when(withPhotos(altText)).then([{ type: 'PostCreated', data: expect.objectContaining({ altText: [] }) }]);
  });

  it('accepts 1,000 characters (code points: 1,000 emoji fit)', () => {
    const altText = ['😀'.repeat(1_000), 'x'.repeat(1_000)];
    spec.given([]).when(withPhotos(altText)).then([{ type: 'PostCreated', data: expect.objectContaining({ altText }) }]);
  });

  const refusals: Array<[string, CreatePost, ErrorCode]> = [
    ['fewer entries than mediaUrls', withPhotos(['only one']), 'alt_text_mismatch'],
    ['more entries than mediaUrls', withPhotos(['a', 'b', 'c']), 'alt_text_mismatch'],
    ['altText without mediaUrls', create({ altText: ['a picture of nothing'] }), 'alt_text_mismatch'],
    ['an entry over 1,000 characters', withPhotos([null, 'x'.repeat(1_001)]), 'alt_text_too_long'],
  ];
  it.each(refusals)('refuses %s', (_name, command, code) => {
    spec.given([]).when(command).thenRefuses(code);
  });

  it('reports the media url rules before the alt text ones (the documented order)', () => {
    spec.given([]).when(create({ mediaUrls: ['http://cdn.example.com/a.png'], altText: ['a', 'b'] })).thenRefuses('invalid_media_url');
  });

  it('reads a PostCreated from before alt text existed as none: its publication carries []', () => {
    const { altText: _none, ...legacy } = createdBy(withPhotos(['a', 'b']))[0].data as PostCreatedData;
    spec
      .given([{ type: 'PostCreated', data: legacy }])
      .when({ type: 'PublishPost', now })
      .then([{ type: 'PublishRequested', data: expect.objectContaining({ mediaUrls: photos, altText: [] }) }]);
  });
});

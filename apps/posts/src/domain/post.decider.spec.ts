import { DomainError, PostCreatedData, PostEvent } from '@app/contracts';
import { CreatePost, decide, evolve, initialState, PostCommand, PostState } from './post.decider';

const now = new Date('2030-01-01T12:00:00Z');
const account = { accountId: 'a-1', platform: 'x' as const, handle: '@acme' };

function create(overrides: Partial<CreatePost> = {}): CreatePost {
  return {
    type: 'CreatePost',
    postId: 'p-1',
    workspaceId: 'w-1',
    content: 'hello',
    mediaUrls: [],
    altText: [],
    firstComments: [],
    accounts: [account],
    scheduledAt: undefined,
    publishNow: false,
    idempotency: null,
    now,
    ...overrides,
  };
}

function given(events: PostEvent[]): PostState {
  return events.reduce(evolve, initialState());
}

function thenError(command: PostCommand, state: PostState = initialState()): DomainError {
  try {
    decide(command, state);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected the command to be refused');
}

describe('Post decider: CreatePost', () => {
  it('creates a draft when neither scheduledAt nor publishNow is given', () => {
    const events = decide(create(), initialState());
    expect(events).toEqual([
      {
        type: 'PostCreated',
        data: expect.objectContaining({ postId: 'p-1', content: 'hello', scheduledAt: null, accounts: [account], createdAt: now.toISOString() }),
      },
    ]);
    expect(given(events)).toMatchObject({ exists: true, status: 'draft', version: 1 });
  });

  it('creates a scheduled post, normalising scheduledAt to UTC', () => {
    const events = decide(create({ scheduledAt: '2030-01-01T14:30:00+02:00' }), initialState());
    expect(events[0]).toMatchObject({ type: 'PostCreated', data: { scheduledAt: '2030-01-01T12:30:00.000Z' } });
    expect(given(events)).toMatchObject({ status: 'scheduled' });
  });

  it('accepts media without content, and content of exactly 10,000 characters', () => {
    expect(decide(create({ content: undefined, mediaUrls: ['https://cdn.example.com/a.png'] }), initialState())).toHaveLength(1);
    expect(decide(create({ content: 'x'.repeat(10_000) }), initialState())).toHaveLength(1);
  });

  it('counts characters as code points: 10,000 emoji fit', () => {
    expect(decide(create({ content: '😀'.repeat(10_000) }), initialState())).toHaveLength(1);
  });

  it.each([
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
  ])('refuses %s', (_name, command, code) => {
    expect(thenError(command).code).toBe(code);
  });

  it('accepts exactly 10 accounts, 10 media urls and 5 first comments of 2,200 characters', () => {
    const events = decide(
      create({
        accounts: Array.from({ length: 10 }, (_, i) => ({ ...account, accountId: `a-${i}` })),
        mediaUrls: Array.from({ length: 10 }, (_, i) => `https://cdn.example.com/${i}.png`),
        firstComments: Array.from({ length: 5 }, () => 'y'.repeat(2_200)),
      }),
      initialState(),
    );
    expect(events).toHaveLength(1);
  });

  it('with publishNow, also asks for publication to every account (attempt 1)', () => {
    const events = decide(create({ publishNow: true }), initialState());
    expect(events.map((e) => e.type)).toEqual(['PostCreated', 'PublishRequested']);
    expect(events[1].data).toMatchObject({ attempt: 1, accounts: [account], content: 'hello' });
    expect(given(events)).toMatchObject({ status: 'publishing', attempt: 1 });
  });

  describe('with an Idempotency-Key', () => {
    const idempotency = { key: 'k-1', requestHash: 'h-1' };
    const created = decide(create({ idempotency }), initialState());

    it('answers a retry of the same request with no new event', () => {
      expect(decide(create({ idempotency }), given(created))).toEqual([]);
    });

    it('refuses the same key with a different request', () => {
      expect(thenError(create({ idempotency: { key: 'k-1', requestHash: 'h-2' } }), given(created)).code).toBe('idempotency_key_reused');
    });
  });
});

describe('Post decider: publication', () => {
  const x = { accountId: 'a-x', platform: 'x' as const, handle: '@acme' };
  const fb = { accountId: 'a-fb', platform: 'facebook' as const, handle: '@acme' };
  const later = new Date('2030-01-01T12:00:05Z');
  const created = decide(create({ accounts: [x, fb], firstComments: ['first!'] }), initialState());
  const requested = decide({ type: 'PublishPost', now }, given(created));
  const start = (accountId: string, attempt = 1) => ({ type: 'StartAccountPublish' as const, accountId, attempt, now });
  const published = (accountId: string, attempt = 1) => ({
    type: 'RecordAccountOutcome' as const,
    accountId,
    attempt,
    outcome: { status: 'published' as const, platformPostId: `pp-${accountId}`, url: `https://example.com/${accountId}`, reconciled: false },
    now: later,
  });
  const failed = (accountId: string, attempt = 1) => ({
    type: 'RecordAccountOutcome' as const,
    accountId,
    attempt,
    outcome: { status: 'failed' as const, error: { code: 'content_too_long', message: 'too long', retryable: false } },
    now: later,
  });
  const run = (history: PostEvent[], command: PostCommand) => [...history, ...decide(command, given(history))];

  it('publishes a draft: PublishRequested for every account', () => {
    expect(requested).toEqual([{ type: 'PublishRequested', data: expect.objectContaining({ attempt: 1, accounts: [x, fb] }) }]);
  });

  it('fires a due scheduled post, expires one more than six hours late, and ignores one not yet due', () => {
    const scheduled = decide(create({ scheduledAt: '2030-01-01T13:00:00Z' }), initialState());
    const at = (iso: string) => decide({ type: 'FireScheduledPost', now: new Date(iso) }, given(scheduled));
    expect(at('2030-01-01T12:59:59Z')).toEqual([]);
    expect(at('2030-01-01T13:00:00Z')).toEqual([{ type: 'PublishRequested', data: expect.objectContaining({ attempt: 1 }) }]);
    expect(at('2030-01-01T19:00:00Z')).toEqual([{ type: 'PublishRequested', data: expect.objectContaining({ attempt: 1 }) }]);
    expect(at('2030-01-01T19:00:01Z')).toEqual([{ type: 'ScheduledPostExpired', data: expect.objectContaining({ error: expect.objectContaining({ code: 'schedule_expired' }) }) }]);
    const fired = [...scheduled, ...at('2030-01-01T13:00:00Z')];
    expect(decide({ type: 'FireScheduledPost', now: new Date('2030-01-01T13:00:01Z') }, given(fired))).toEqual([]);
  });

  it('edits a scheduled post before its time and refuses after it (409)', () => {
    const scheduled = decide(create({ scheduledAt: '2030-01-01T13:00:00Z' }), initialState());
    const edit = (iso: string) => ({ type: 'EditPost' as const, changes: { content: 'v2' }, now: new Date(iso) });
    expect(decide(edit('2030-01-01T12:59:00Z'), given(scheduled))).toEqual([{ type: 'PostEdited', data: expect.objectContaining({ content: 'v2' }) }]);
    expect(thenError(edit('2030-01-01T13:00:00Z'), given(scheduled)).code).toBe('post_not_editable');
    expect(thenError({ type: 'DeletePost', now: new Date('2030-01-01T13:00:00Z') }, given(scheduled)).code).toBe('post_not_editable');
    const unscheduled = decide({ type: 'EditPost', changes: { scheduledAt: null }, now }, given(scheduled));
    expect(given([...scheduled, ...unscheduled])).toMatchObject({ status: 'draft', data: { scheduledAt: null } });
  });

  it('refuses to publish a post that is not a draft or scheduled', () => {
    expect(thenError({ type: 'PublishPost', now }, given([...created, ...requested])).code).toBe('post_not_publishable');
  });

  it('records the boundary once: a second start is a no-op (the handler reads it as in doubt)', () => {
    const history = run([...created, ...requested], start('a-x'));
    expect(history.at(-1)).toMatchObject({ type: 'AccountPublishStarted', data: { accountId: 'a-x', attempt: 1 } });
    expect(decide(start('a-x'), given(history))).toEqual([]);
  });

  it('completes as published when every account succeeds, with publishedAt', () => {
    let history = run([...created, ...requested], published('a-x'));
    expect(history.at(-1)?.type).toBe('AccountPublished');
    history = run(history, published('a-fb'));
    expect(history.at(-1)).toEqual({
      type: 'PublishCompleted',
      data: expect.objectContaining({ status: 'published', publishedAt: later.toISOString(), errorMessage: null }),
    });
    expect(given(history)).toMatchObject({ status: 'published' });
  });

  it('completes as partial when one account fails, keeping the other result, and as failed when all fail', () => {
    const partial = run(run([...created, ...requested], published('a-x')), failed('a-fb'));
    expect(partial.at(-1)).toMatchObject({ type: 'PublishCompleted', data: { status: 'partial', errorMessage: expect.stringContaining('facebook:@acme content_too_long') } });
    const allFailed = run(run([...created, ...requested], failed('a-x')), failed('a-fb'));
    expect(allFailed.at(-1)).toMatchObject({ type: 'PublishCompleted', data: { status: 'failed', publishedAt: null } });
  });

  it('keeps the first outcome of an account: a repeat changes nothing', () => {
    const history = run([...created, ...requested], published('a-x'));
    expect(decide(published('a-x'), given(history))).toEqual([]);
    expect(decide(failed('a-x'), given(history))).toEqual([]);
  });

  it('retries only the failed accounts, in a new attempt, and refuses to retry a published post', () => {
    const partial = run(run([...created, ...requested], published('a-x')), failed('a-fb'));
    const retried = decide({ type: 'RetryPublish', now }, given(partial));
    expect(retried).toEqual([{ type: 'PublishRequested', data: expect.objectContaining({ attempt: 2, accounts: [fb] }) }]);
    const done = run([...partial, ...retried], published('a-fb', 2));
    expect(done.at(-1)).toMatchObject({ type: 'PublishCompleted', data: { attempt: 2, status: 'published' } });
    expect(thenError({ type: 'RetryPublish', now }, given(done)).code).toBe('post_not_retryable');
    expect(thenError(start('a-x', 2), given(done)).code).toBe('not_found');
  });

  it('records each first comment once, only under a live item', () => {
    const history = run([...created, ...requested], published('a-x'));
    const comment = { type: 'RecordFirstComment' as const, accountId: 'a-x', index: 0, outcome: { status: 'posted' as const, platformCommentId: 'c-1' }, now };
    const after = run(history, comment);
    expect(after.at(-1)).toMatchObject({ type: 'FirstCommentPosted', data: { index: 0, platformCommentId: 'c-1' } });
    expect(decide(comment, given(after))).toEqual([]);
    expect(thenError({ ...comment, accountId: 'a-fb' }, given(history)).code).toBe('not_found');
  });

  it('closes a stalled publication: started accounts end outcome_unknown, pending ones publish_abandoned, then completes', () => {
    const history = run(run([...created, ...requested], start('a-x')), { type: 'AbandonPublication', now: later });
    expect(history.slice(-3)).toEqual([
      { type: 'AccountPublishFailed', data: expect.objectContaining({ accountId: 'a-x', error: expect.objectContaining({ code: 'outcome_unknown', retryable: false }) }) },
      { type: 'AccountPublishFailed', data: expect.objectContaining({ accountId: 'a-fb', error: expect.objectContaining({ code: 'publish_abandoned', retryable: true }) }) },
      { type: 'PublishCompleted', data: expect.objectContaining({ status: 'failed' }) },
    ]);
    expect(decide({ type: 'AbandonPublication', now: later }, given(history))).toEqual([]);
  });

  it('refuses commands on a post that does not exist', () => {
    expect(thenError({ type: 'PublishPost', now }).code).toBe('not_found');
  });
});

describe('Post decider: alt text', () => {
  const photos = ['https://cdn.example.com/a.png', 'https://cdn.example.com/b.png'];
  const withPhotos = (altText: Array<string | null>) => create({ mediaUrls: photos, altText });
  const edit = (changes: Extract<PostCommand, { type: 'EditPost' }>['changes']) => ({ type: 'EditPost' as const, changes, now });

  it('keeps alt text per media item, a blank entry as null, and hands it to the publication', () => {
    const events = decide({ ...withPhotos(['A red bicycle', '  ']), publishNow: true }, initialState());
    expect(events[0].data).toMatchObject({ mediaUrls: photos, altText: ['A red bicycle', null] });
    expect(events[1]).toMatchObject({ type: 'PublishRequested', data: { mediaUrls: photos, altText: ['A red bicycle', null] } });
  });

  it('stores "none" as []: no altText, [], or only blank entries', () => {
    for (const altText of [[], [null, ''], ['', ' ']]) expect(decide(withPhotos(altText), initialState())[0].data).toMatchObject({ altText: [] });
  });

  it('accepts 1,000 characters (code points: 1,000 emoji fit)', () => {
    expect(decide(withPhotos(['😀'.repeat(1_000), 'x'.repeat(1_000)]), initialState())[0].data).toMatchObject({ altText: ['😀'.repeat(1_000), 'x'.repeat(1_000)] });
  });

  it.each([
    ['fewer entries than mediaUrls', withPhotos(['only one']), 'alt_text_mismatch'],
    ['more entries than mediaUrls', withPhotos(['a', 'b', 'c']), 'alt_text_mismatch'],
    ['altText without mediaUrls', create({ altText: ['a picture of nothing'] }), 'alt_text_mismatch'],
    ['an entry over 1,000 characters', withPhotos([null, 'x'.repeat(1_001)]), 'alt_text_too_long'],
  ])('refuses %s', (_name, command, code) => {
    expect(thenError(command).code).toBe(code);
  });

  it('reports the media url rules before the alt text ones (the documented order)', () => {
    expect(thenError(create({ mediaUrls: ['http://cdn.example.com/a.png'], altText: ['a', 'b'] })).code).toBe('invalid_media_url');
  });

  it('reads a PostCreated from before alt text existed as none: its publication carries []', () => {
    const { altText: _none, ...legacy } = decide(withPhotos(['a', 'b']), initialState())[0].data as PostCreatedData;
    const requested = decide({ type: 'PublishPost', now }, given([{ type: 'PostCreated', data: legacy }]));
    expect(requested).toEqual([{ type: 'PublishRequested', data: expect.objectContaining({ mediaUrls: photos, altText: [] }) }]);
  });

  describe('editing', () => {
    const created = decide(withPhotos(['first', 'second']), initialState());
    const after = (changes: Parameters<typeof edit>[0]) => {
      const events = decide(edit(changes), given(created));
      return { event: events[0], state: given([...created, ...events]) };
    };

    it('altText alone describes the current mediaUrls', () => {
      const { event, state } = after({ altText: [null, 'second, reworded'] });
      expect(event.data).toEqual({ postId: 'p-1', altText: [null, 'second, reworded'], editedAt: now.toISOString() });
      expect(state).toMatchObject({ data: { mediaUrls: photos, altText: [null, 'second, reworded'] } });
    });

    it('new mediaUrls without altText clear the alt texts, even for the same urls', () => {
      for (const mediaUrls of [[...photos].reverse(), photos]) {
        const { event, state } = after({ mediaUrls });
        expect(event.data).toMatchObject({ mediaUrls, altText: [] });
        expect(state).toMatchObject({ data: { mediaUrls, altText: [] } });
      }
    });

    it('new mediaUrls with altText take both; [] clears them', () => {
      expect(after({ mediaUrls: [photos[1]], altText: ['second'] }).state).toMatchObject({ data: { mediaUrls: [photos[1]], altText: ['second'] } });
      expect(after({ altText: [] }).state).toMatchObject({ data: { mediaUrls: photos, altText: [] } });
    });

    it('an edit of other fields leaves the alt texts, and the next publication carries them', () => {
      const edited = [...created, ...decide(edit({ content: 'v2' }), given(created))];
      expect(edited.at(-1)!.data).not.toHaveProperty('altText');
      expect(decide({ type: 'PublishPost', now }, given(edited))).toEqual([{ type: 'PublishRequested', data: expect.objectContaining({ altText: ['first', 'second'] }) }]);
    });

    it.each([
      ['altText alone of another length than the current mediaUrls', { altText: ['one'] }, 'alt_text_mismatch'],
      ['altText of another length than the new mediaUrls', { mediaUrls: [photos[0]], altText: ['a', 'b'] }, 'alt_text_mismatch'],
      ['altText with the media removed', { mediaUrls: [], altText: ['a', 'b'] }, 'alt_text_mismatch'],
      ['an entry over 1,000 characters', { altText: ['x'.repeat(1_001), null] }, 'alt_text_too_long'],
    ])('refuses %s', (_name, changes, code) => {
      expect(thenError(edit(changes), given(created)).code).toBe(code);
    });
  });
});

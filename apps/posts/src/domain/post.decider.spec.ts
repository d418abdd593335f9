import { DomainError, PostEvent } from '@app/contracts';
import { CreatePost, decide, evolve, initialState, PostState } from './post.decider';

const now = new Date('2030-01-01T12:00:00Z');
const account = { accountId: 'a-1', platform: 'x' as const, handle: '@acme' };

function create(overrides: Partial<CreatePost> = {}): CreatePost {
  return {
    type: 'CreatePost',
    postId: 'p-1',
    workspaceId: 'w-1',
    content: 'hello',
    mediaUrls: [],
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

function thenError(command: CreatePost, state: PostState = initialState()): DomainError {
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
    expect(events[0].data.scheduledAt).toBe('2030-01-01T12:30:00.000Z');
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

  it('refuses publishNow until publishing exists, after every other rule', () => {
    expect(thenError(create({ publishNow: true })).code).toBe('publish_not_supported');
    expect(thenError(create({ publishNow: true, content: undefined })).code).toBe('content_required');
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

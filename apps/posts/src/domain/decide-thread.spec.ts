import { THREAD_MAX_PARTS } from '@app/contracts';
import { create, createdBy, fb, now, published, run, spec, x } from './post.test-support';
import { RecordFirstComment } from './post.commands';

/** thread and autoSplit: create and edit rules, each part recorded at its own boundary, a retry resuming a stopped thread. */
describe('post decider: threads', () => {
  const mastodon = { accountId: 'a-m', platform: 'mastodon' as const, handle: '@acme' };
  const parts = [{ content: 'two' }, { content: 'three', mediaUrls: ['https://cdn.example.com/a.png'], altText: ['a chart'] }];
  const threaded = createdBy(create({ accounts: [x, mastodon], thread: parts }));
  const part = (accountId: string, index: number, outcome: RecordFirstComment['outcome']): RecordFirstComment => ({ type: 'RecordFirstComment', kind: 'threadPart', accountId, index, outcome, now });
  const posted = (accountId: string, index: number) => part(accountId, index, { status: 'posted', platformCommentId: `${accountId}-part-${index}` });
  const failedPart = (accountId: string, index: number) => part(accountId, index, { status: 'failed', error: { code: 'platform_error', message: 'down', retryable: true } });

  it('stores the parts whole (media and alt text filled in) and carries them into the publication', () => {
    const [created] = threaded;
    expect(created).toMatchObject({ data: { thread: [{ content: 'two', mediaUrls: [], altText: [] }, { content: 'three', mediaUrls: ['https://cdn.example.com/a.png'], altText: ['a chart'] }] } });
    const [requested] = spec.given(threaded).when({ type: 'PublishPost', now }).events();
    expect(requested).toMatchObject({ type: 'PublishRequested', data: { thread: (created.data as { thread: unknown }).thread } });
  });

  const refusals: Array<[string, Parameters<typeof create>[0], string, Record<string, unknown>]> = [
    ['more parts than the bound', { thread: Array.from({ length: THREAD_MAX_PARTS + 1 }, () => ({ content: 'x' })) }, 'too_many_thread_parts', { parts: THREAD_MAX_PARTS + 1 }],
    ['an empty part', { thread: [{ content: 'ok' }, { content: ' ' }] }, 'content_required', { threadPart: 1 }],
    ['a part with a bad media url', { thread: [{ content: 'ok', mediaUrls: ['http://insecure.example/a.png'] }] }, 'invalid_media_url', { threadPart: 0, index: 0 }],
    ['a part whose alt text does not pair', { thread: [{ content: 'ok', mediaUrls: ['https://cdn.example.com/a.png'], altText: ['a', 'b'] }] }, 'alt_text_mismatch', { threadPart: 0 }],
    ['a part over X\'s length', { thread: [{ content: 'y'.repeat(281) }] }, 'thread_part_not_publishable', { threadPart: 0, accountId: 'a-1', platform: 'x', reason: 'content_too_long' }],
    ['media on a part that is a comment (Facebook)', { accounts: [fb], thread: [{ content: 'ok', mediaUrls: ['https://cdn.example.com/a.png'] }] }, 'thread_part_not_publishable', { threadPart: 0, platform: 'facebook', reason: 'media_not_supported' }],
    ['an auto-split thread longer than the bound', { accounts: [x], autoSplit: true, content: 'A sentence of some thirty chars. '.repeat(300) }, 'too_many_thread_parts', { accountId: 'a-x' }],
  ];

  it.each(refusals)('refuses %s (nothing appended), naming the part', (_name, overrides, code, details) => {
    const error = spec.given([]).when(create(overrides)).thenRefuses(code as never);
    expect(error.extra.details).toMatchObject(details);
  });

  it('auto-split lets over-long content through where the platform has reply chains; elsewhere it stays the platform\'s refusal at publication', () => {
    const long = 'Every sentence here is short. '.repeat(20).trim();
    expect(createdBy(create({ accounts: [x, fb], content: long, autoSplit: true }))[0]).toMatchObject({ data: { autoSplit: true, content: long } });
  });

  it('an edit replaces the thread and checks it as a create does', () => {
    const edited = spec.given(threaded).when({ type: 'EditPost', changes: { thread: [{ content: 'only one' }] }, now }).events();
    expect(edited).toEqual([{ type: 'PostEdited', data: expect.objectContaining({ thread: [{ content: 'only one', mediaUrls: [], altText: [] }] }) }]);
    spec.given(threaded).when({ type: 'EditPost', changes: { thread: [{ content: 'z'.repeat(281) }] }, now }).thenRefuses('thread_part_not_publishable');
    // Retargeting checks the kept thread against the new accounts' platforms.
    const withMedia = createdBy(create({ accounts: [mastodon], thread: [{ content: 'pic', mediaUrls: ['https://cdn.example.com/a.png'] }] }));
    spec.given(withMedia).when({ type: 'EditPost', changes: { accounts: [fb] }, now }).thenRefuses('thread_part_not_publishable');
  });

  it('an edit of other fields checks the kept thread with them: autoSplit alone, content alone', () => {
    const long = 'Every sentence here is short. '.repeat(20).trim();
    const draft = createdBy(create({ content: long }));
    expect(spec.given(draft).when({ type: 'EditPost', changes: { autoSplit: true }, now }).events()).toEqual([{ type: 'PostEdited', data: expect.objectContaining({ autoSplit: true }) }]);
    expect(spec.given(threaded).when({ type: 'EditPost', changes: { content: 'new text' }, now }).events()).toEqual([{ type: 'PostEdited', data: expect.objectContaining({ content: 'new text' }) }]);
  });

  describe('publication', () => {
    const live = run(run(run(threaded, { type: 'PublishPost', now }), published('a-x')), published('a-m'));

    it('records each part once, only for a live account and an index the thread has', () => {
      spec.given(live).when(posted('a-x', 0)).then([{ type: 'ThreadPartPosted', data: { postId: 'p-1', accountId: 'a-x', index: 0, platformPostId: 'a-x-part-0', postedAt: now.toISOString() } }]);
      spec.given(run(live, posted('a-x', 0))).when(posted('a-x', 0)).thenNothing();
      spec.given(live).when(posted('a-x', 2)).thenRefuses('not_found');
      spec.given(threaded).when(posted('a-x', 0)).thenRefuses('not_found');
    });

    it('records a part\'s start once; an outcome after it stands, a start after an outcome changes nothing', () => {
      const start = part('a-x', 0, { status: 'started' });
      const started = run(live, start);
      expect(started[started.length - 1]).toEqual({ type: 'ThreadPartStarted', data: { postId: 'p-1', accountId: 'a-x', index: 0, startedAt: now.toISOString() } });
      spec.given(started).when(start).thenNothing();
      spec.given(started).when(posted('a-x', 0)).then([{ type: 'ThreadPartPosted', data: expect.objectContaining({ index: 0 }) }]);
      spec.given(run(started, posted('a-x', 0))).when(start).thenNothing();
      // First comments have no start boundary.
      spec.given(live).when({ ...start, kind: undefined }).thenRefuses('not_found');
    });

    it('a thread stopped at a failed part is retried from there: the live account is not published again, the attempt completes at once', () => {
      const stopped = run(run(live, posted('a-x', 0)), failedPart('a-x', 1));
      const retry = spec.given(stopped).when({ type: 'RetryPublish', now }).events();
      expect(retry).toEqual([
        { type: 'PublishRequested', data: expect.objectContaining({ attempt: 2, accounts: [], threadResumes: [x] }) },
        { type: 'PublishCompleted', data: expect.objectContaining({ attempt: 2, status: 'published' }) },
      ]);
      const resumed = spec.given(stopped).when({ type: 'RetryPublish', now }).stateAfter();
      expect(resumed).toMatchObject({ accounts: { 'a-x': { status: 'published', attempt: 2, thread: { 0: { status: 'posted', platformPostId: 'a-x-part-0' } } } } });
      expect((resumed as { accounts: Record<string, { thread: object }> }).accounts['a-x'].thread).not.toHaveProperty('1');
      // The failed part can now be recorded again; the posted one still cannot change.
      const afterRetry = run(stopped, { type: 'RetryPublish', now });
      spec.given(afterRetry).when(posted('a-x', 1)).then([{ type: 'ThreadPartPosted', data: expect.objectContaining({ index: 1 }) }]);
      spec.given(afterRetry).when(posted('a-x', 0)).thenNothing();
    });

    it('a published post whose threads all went through is not retryable', () => {
      const done = run(run(run(run(live, posted('a-x', 0)), posted('a-x', 1)), posted('a-m', 0)), posted('a-m', 1));
      spec.given(done).when({ type: 'RetryPublish', now }).thenRefuses('post_not_retryable');
    });
  });
});

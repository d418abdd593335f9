import { ExistingPost } from './post.state';
import { startDecision } from './publication';
import { failed, fb, later, now, publishing, published, run, spec, start, twoAccountPost, x } from './post.test-support';

describe('Post decider: publication', () => {
  it('publishes a draft: PublishRequested for every account', () => {
    spec.given(twoAccountPost).when({ type: 'PublishPost', now }).then([{ type: 'PublishRequested', data: expect.objectContaining({ attempt: 1, accounts: [x, fb] }) }]);
  });

  it('refuses to publish a post that is not a draft or scheduled', () => {
    spec.given(publishing).when({ type: 'PublishPost', now }).thenRefuses('post_not_publishable');
  });

  it('records the boundary once, with the delivery id that recorded it: a second start is a no-op', () => {
    spec.given(publishing).when(start('a-x', 1, 'run-1')).then([{ type: 'AccountPublishStarted', data: { postId: 'p-1', accountId: 'a-x', attempt: 1, deliveryId: 'run-1', startedAt: now.toISOString() } }]);
    spec.given(run(publishing, start('a-x', 1, 'run-1'))).when(start('a-x', 1, 'run-2')).thenNothing();
  });

  it('tells the run that recorded a start `started` again (it lost the answer), another run in_doubt, and done once an outcome is recorded', () => {
    const startedBy = (history: ReturnType<typeof run>, deliveryId: string) =>
      startDecision((spec.given(history).when(start('a-x', 1, deliveryId)).stateAfter() as ExistingPost).accounts['a-x'], deliveryId);
    const started = run(publishing, start('a-x', 1, 'run-1'));
    expect(startedBy(publishing, 'run-1')).toBe('started');
    expect(startedBy(started, 'run-1')).toBe('started');
    expect(startedBy(started, 'run-2')).toBe('in_doubt');
    expect(startedBy(run(started, published('a-x')), 'run-1')).toBe('done');
    // A start recorded before delivery ids (no deliveryId) is in doubt for every run.
    const legacy = [...publishing, { type: 'AccountPublishStarted' as const, data: { postId: 'p-1', accountId: 'a-x', attempt: 1, startedAt: now.toISOString() } }];
    expect(startedBy(legacy, 'run-1')).toBe('in_doubt');
  });

  it('completes as published when every account succeeds, with publishedAt', () => {
    spec.given(publishing).when(published('a-x')).then([{ type: 'AccountPublished', data: expect.objectContaining({ accountId: 'a-x' }) }]);
    const when = spec.given(run(publishing, published('a-x'))).when(published('a-fb'));
    when.then([
      { type: 'AccountPublished', data: expect.objectContaining({ accountId: 'a-fb' }) },
      { type: 'PublishCompleted', data: expect.objectContaining({ status: 'published', publishedAt: later.toISOString(), errorMessage: null }) },
    ]);
    expect(when.stateAfter()).toMatchObject({ status: 'published' });
  });

  it('completes as partial when one account fails, keeping the other result, and as failed when all fail', () => {
    const partial = run(run(publishing, published('a-x')), failed('a-fb'));
    expect(partial.at(-1)).toMatchObject({ type: 'PublishCompleted', data: { status: 'partial', errorMessage: expect.stringContaining('facebook:@acme content_too_long') } });
    const allFailed = run(run(publishing, failed('a-x')), failed('a-fb'));
    expect(allFailed.at(-1)).toMatchObject({ type: 'PublishCompleted', data: { status: 'failed', publishedAt: null } });
  });

  it('keeps the first outcome of an account: a repeat changes nothing', () => {
    const history = run(publishing, published('a-x'));
    spec.given(history).when(published('a-x')).thenNothing();
    spec.given(history).when(failed('a-x')).thenNothing();
  });

  it('retries only the failed accounts, in a new attempt, and refuses to retry a published post', () => {
    const partial = run(run(publishing, published('a-x')), failed('a-fb'));
    spec.given(partial).when({ type: 'RetryPublish', now }).then([{ type: 'PublishRequested', data: expect.objectContaining({ attempt: 2, accounts: [fb] }) }]);
    const done = run(run(partial, { type: 'RetryPublish', now }), published('a-fb', 2));
    expect(done.at(-1)).toMatchObject({ type: 'PublishCompleted', data: { attempt: 2, status: 'published' } });
    spec.given(done).when({ type: 'RetryPublish', now }).thenRefuses('post_not_retryable');
    spec.given(done).when(start('a-x', 2)).thenRefuses('not_found');
  });

  it('records each first comment once, only under a live item', () => {
    const history = run(publishing, published('a-x'));
    const comment = { type: 'RecordFirstComment' as const, accountId: 'a-x', index: 0, outcome: { status: 'posted' as const, platformCommentId: 'c-1' }, now };
    spec.given(history).when(comment).then([{ type: 'FirstCommentPosted', data: expect.objectContaining({ index: 0, platformCommentId: 'c-1' }) }]);
    spec.given(run(history, comment)).when(comment).thenNothing();
    spec.given(history).when({ ...comment, accountId: 'a-fb' }).thenRefuses('not_found');
  });

  it('keeps the permalink the platform gave a posted first comment or thread part, when it gave one', () => {
    const history = run(publishing, published('a-x'));
    const comment = { type: 'RecordFirstComment' as const, accountId: 'a-x', index: 0, outcome: { status: 'posted' as const, platformCommentId: 'c-1', url: 'https://x.com/acme/status/c-1' }, now };
    spec.given(history).when(comment).then([{ type: 'FirstCommentPosted', data: { postId: 'p-1', accountId: 'a-x', index: 0, platformCommentId: 'c-1', url: 'https://x.com/acme/status/c-1', postedAt: now.toISOString() } }]);
    spec.given(history).when({ ...comment, outcome: { status: 'posted', platformCommentId: 'c-1' } }).then([{ type: 'FirstCommentPosted', data: expect.not.objectContaining({ url: expect.anything() }) }]);
  });

  it('records a first comment\'s start once before its call; its outcome follows once, and a start after an outcome changes nothing', () => {
    const history = run(publishing, published('a-x'));
    const comment = { type: 'RecordFirstComment' as const, accountId: 'a-x', index: 0, now };
    const begin = { ...comment, outcome: { status: 'started' as const } };
    const posted = { ...comment, outcome: { status: 'posted' as const, platformCommentId: 'c-1' } };
    spec.given(history).when(begin).then([{ type: 'FirstCommentStarted', data: { postId: 'p-1', accountId: 'a-x', index: 0, startedAt: now.toISOString() } }]);
    const started = run(history, begin);
    spec.given(started).when(begin).thenNothing();
    spec.given(started).when(posted).then([{ type: 'FirstCommentPosted', data: expect.objectContaining({ index: 0, platformCommentId: 'c-1' }) }]);
    spec.given(run(started, posted)).when(begin).thenNothing();
    spec.given(run(started, posted)).when(posted).thenNothing();
    spec.given(history).when({ ...begin, index: 1 }).thenRefuses('not_found');
  });
});

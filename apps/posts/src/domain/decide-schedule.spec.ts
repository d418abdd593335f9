import { create, createdBy, fb, later, publishing, run, spec, start, x } from './post.test-support';

describe('Post decider: FireScheduledPost', () => {
  const scheduled = createdBy(create({ scheduledAt: '2030-01-01T13:00:00Z' }));
  const fireAt = (iso: string) => spec.given(scheduled).when({ type: 'FireScheduledPost', now: new Date(iso) });

  it('fires a due scheduled post, expires one more than six hours late, and ignores one not yet due', () => {
    fireAt('2030-01-01T12:59:59Z').thenNothing();
    fireAt('2030-01-01T13:00:00Z').then([{ type: 'PublishRequested', data: expect.objectContaining({ attempt: 1 }) }]);
    fireAt('2030-01-01T19:00:00Z').then([{ type: 'PublishRequested', data: expect.objectContaining({ attempt: 1 }) }]);
    fireAt('2030-01-01T19:00:01Z').then([{ type: 'ScheduledPostExpired', data: expect.objectContaining({ error: expect.objectContaining({ code: 'schedule_expired' }) }) }]);
  });

  it('does nothing when the post already fired (the scheduler saw it stale)', () => {
    const fired = fireAt('2030-01-01T13:00:00Z').history();
    spec.given(fired).when({ type: 'FireScheduledPost', now: new Date('2030-01-01T13:00:01Z') }).thenNothing();
  });
});

describe('Post decider: AbandonPublication', () => {
  it('closes a stalled publication: started accounts end outcome_unknown, pending ones publish_abandoned, then completes', () => {
    const when = spec.given(run(publishing, start('a-x'))).when({ type: 'AbandonPublication', now: later });
    when.then([
      { type: 'AccountPublishFailed', data: expect.objectContaining({ accountId: 'a-x', error: expect.objectContaining({ code: 'outcome_unknown', retryable: false }) }) },
      { type: 'AccountPublishFailed', data: expect.objectContaining({ accountId: 'a-fb', error: expect.objectContaining({ code: 'publish_abandoned', retryable: true }) }) },
      { type: 'PublishCompleted', data: expect.objectContaining({ status: 'failed' }) },
    ]);
    spec.given(when.history()).when({ type: 'AbandonPublication', now: later }).thenNothing();
  });
});

describe('Post decider: after an abandoned publication', () => {
  it('a post closed before any account started is safe to retry: the retry targets every account again', () => {
    const abandoned = run(publishing, { type: 'AbandonPublication', now: later });
    expect(abandoned.slice(-3).map((event) => event.type)).toEqual(['AccountPublishFailed', 'AccountPublishFailed', 'PublishCompleted']);
    expect(abandoned.slice(-3, -1).map((event) => event.data)).toEqual([
      expect.objectContaining({ error: expect.objectContaining({ code: 'publish_abandoned', retryable: true }) }),
      expect.objectContaining({ error: expect.objectContaining({ code: 'publish_abandoned', retryable: true }) }),
    ]);
    spec.given(abandoned).when({ type: 'RetryPublish', now: later }).then([{ type: 'PublishRequested', data: expect.objectContaining({ attempt: 2, accounts: [x, fb] }) }]);
  });
});

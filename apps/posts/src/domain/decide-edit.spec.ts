import { ErrorCode, PostEvent, publicationFor } from '@app/contracts';
import { EditPost } from './post.commands';
import { create, createdBy, failed, fb, later, now, published, publishing, run, spec, x } from './post.test-support';

describe('Post decider: EditPost and DeletePost', () => {
  const scheduled = createdBy(create({ scheduledAt: '2030-01-01T13:00:00Z' }));
  const edit = (iso: string): EditPost => ({ type: 'EditPost', changes: { content: 'v2' }, now: new Date(iso) });

  it('edits a scheduled post before its time and refuses after it (409)', () => {
    spec.given(scheduled).when(edit('2030-01-01T12:59:00Z')).then([{ type: 'PostEdited', data: expect.objectContaining({ content: 'v2' }) }]);
    spec.given(scheduled).when(edit('2030-01-01T13:00:00Z')).thenRefuses('post_not_editable');
    spec.given(scheduled).when({ type: 'DeletePost', now: new Date('2030-01-01T13:00:00Z') }).thenRefuses('post_not_editable');
  });

  it('turns a scheduled post back into a draft when scheduledAt is cleared', () => {
    const unscheduled = spec.given(scheduled).when({ type: 'EditPost', changes: { scheduledAt: null }, now });
    expect(unscheduled.stateAfter()).toMatchObject({ status: 'draft', data: { scheduledAt: null } });
  });

  it('refuses an edit that names no field', () => {
    spec.given(scheduled).when({ type: 'EditPost', changes: {}, now }).thenRefuses('nothing_to_edit');
  });

  it('deletes a draft; the deleted post is then not found', () => {
    const draft = createdBy(create());
    spec.given(draft).when({ type: 'DeletePost', now }).then([{ type: 'PostDeleted', data: { postId: 'p-1', deletedAt: now.toISOString() } }]);
    const deleted = run(draft, { type: 'DeletePost', now });
    spec.given(deleted).when(edit('2030-01-01T12:00:00Z')).thenRefuses('not_found');
  });
});

describe('Post decider: editing alt text', () => {
  const photos = ['https://cdn.example.com/a.png', 'https://cdn.example.com/b.png'];
  const created = createdBy(create({ mediaUrls: photos, altText: ['first', 'second'] }));
  const edit = (changes: EditPost['changes']) => spec.given(created).when({ type: 'EditPost', changes, now });

  it('altText alone describes the current mediaUrls', () => {
    const when = edit({ altText: [null, 'second, reworded'] });
    when.then([{ type: 'PostEdited', data: { postId: 'p-1', altText: [null, 'second, reworded'], editedAt: now.toISOString() } }]);
    expect(when.stateAfter()).toMatchObject({ data: { mediaUrls: photos, altText: [null, 'second, reworded'] } });
  });

  it.each([[[...photos].reverse()], [photos]])('new mediaUrls without altText clear the alt texts, even for the same urls (%j)', (mediaUrls) => {
    const when = edit({ mediaUrls });
    when.then([{ type: 'PostEdited', data: expect.objectContaining({ mediaUrls, altText: [] }) }]);
    expect(when.stateAfter()).toMatchObject({ data: { mediaUrls, altText: [] } });
  });

  it('new mediaUrls with altText take both; [] clears them', () => {
    expect(edit({ mediaUrls: [photos[1]], altText: ['second'] }).stateAfter()).toMatchObject({ data: { mediaUrls: [photos[1]], altText: ['second'] } });
    expect(edit({ altText: [] }).stateAfter()).toMatchObject({ data: { mediaUrls: photos, altText: [] } });
  });

  it('an edit of other fields leaves the alt texts, and the next publication carries them', () => {
    const edited = edit({ content: 'v2' }).history();
    expect(edited.at(-1)!.data).not.toHaveProperty('altText');
    spec
      .given(edited)
      .when({ type: 'PublishPost', now })
      .then([{ type: 'PublishRequested', data: expect.objectContaining({ altText: ['first', 'second'] }) }]);
  });

  const refusals: Array<[string, EditPost['changes'], ErrorCode]> = [
    ['altText alone of another length than the current mediaUrls', { altText: ['one'] }, 'alt_text_mismatch'],
    ['altText of another length than the new mediaUrls', { mediaUrls: [photos[0]], altText: ['a', 'b'] }, 'alt_text_mismatch'],
    ['altText with the media removed', { mediaUrls: [], altText: ['a', 'b'] }, 'alt_text_mismatch'],
    ['an entry over 1,000 characters', { altText: ['x'.repeat(1_001), null] }, 'alt_text_too_long'],
  ];
  it.each(refusals)('refuses %s', (_name, changes, code) => {
    edit(changes).thenRefuses(code);
  });
});

describe('Post decider: fixing a partial post before a retry', () => {
  // X failed (content_too_long), Facebook published: the post is partial.
  const partial = run(run(publishing, published('a-fb')), failed('a-x'));
  const fix = (overrides: EditPost['changes']['overrides'], more: Partial<EditPost['changes']> = {}): EditPost => ({ type: 'EditPost', changes: { overrides, ...more }, now });

  it('stays partial after the fix, with the failed account still the one to retry', () => {
    expect(partial[partial.length - 1]).toMatchObject({ type: 'PublishCompleted', data: { status: 'partial' } });
    expect(spec.given(partial).when(fix({ x: { content: 'short' } })).stateAfter()).toMatchObject({ status: 'partial', accounts: { 'a-x': { status: 'failed' }, 'a-fb': { status: 'published' } } });
  });

  it("changes a failed account's override, stays partial, and the retry sends the new version to the failed account only", () => {
    spec.given(partial).when(fix({ x: { content: 'Short enough for X' } })).then([
      { type: 'PostEdited', data: { postId: 'p-1', overrides: { x: { content: 'Short enough for X' } }, editedAt: now.toISOString() } },
    ]);
    const fixed = run(partial, fix({ 'x:@acme': { content: 'Short enough for X' } }));
    const [requested] = spec.given(fixed).when({ type: 'RetryPublish', now: later }).events();
    expect(requested).toMatchObject({ type: 'PublishRequested', data: { attempt: 2, accounts: [x] } });
    const data = (requested as Extract<PostEvent, { type: 'PublishRequested' }>).data;
    expect(publicationFor(data, x).content).toBe('Short enough for X');
    // What Facebook published is what it would publish still.
    expect(publicationFor(data, fb).content).toBe('hello');
  });

  it("refuses to change what a published account published (account_already_published), by platform or by account, appending nothing", () => {
    const refusedByPlatform = spec.given(partial).when(fix({ facebook: { content: 'other' } })).thenRefuses('account_already_published');
    expect(refusedByPlatform.extra.details).toEqual({ accountIds: ['a-fb'] });
    spec.given(partial).when(fix({ 'a-fb': { firstComments: ['another'] } })).thenRefuses('account_already_published');
    // Naming a published account with the same publication it has changes nothing it published: allowed.
    spec.given(partial).when(fix({ facebook: { content: 'hello' }, x: { content: 'short' } })).then([expect.objectContaining({ type: 'PostEdited' })]);
  });

  it('refuses any other field on a partial post (post_not_editable), and an override its platform would refuse', () => {
    const refused = spec.given(partial).when(fix(undefined, { content: 'new text for everyone' })).thenRefuses('post_not_editable');
    expect(refused.extra.details).toEqual({ fields: ['content'] });
    spec.given(partial).when(fix({ x: { content: 'short' } }, { scheduledAt: '2030-01-02T00:00:00Z' })).thenRefuses('post_not_editable');
    spec.given(partial).when(fix({ x: { content: 'x'.repeat(281) } })).thenRefuses('override_not_publishable');
    spec.given(partial).when({ type: 'EditPost', changes: {}, now }).thenRefuses('nothing_to_edit');
    spec.given(partial).when({ type: 'DeletePost', now }).thenRefuses('post_not_editable');
  });

  it('refuses while a retry is publishing, and once every account published', () => {
    const retrying = run(partial, { type: 'RetryPublish', now });
    spec.given(retrying).when(fix({ x: { content: 'short' } })).thenRefuses('post_not_editable');
    const done = run(retrying, published('a-x', 2));
    spec.given(done).when(fix({ x: { content: 'short' } })).thenRefuses('post_not_editable');
  });
});

describe('Post decider: fixing a failed post before a retry', () => {
  const failedPost = run(run(publishing, failed('a-fb')), failed('a-x'));

  it('takes any account\'s override (none published), keeps the post failed, and the retry sends the new versions to all', () => {
    const fixed = spec.given(failedPost).when({ type: 'EditPost', changes: { overrides: { x: { content: 'For X' }, facebook: { content: 'For Facebook' } } }, now });
    expect(fixed.stateAfter()).toMatchObject({ status: 'failed' });
    const [requested] = spec.given(run(failedPost, { type: 'EditPost', changes: { overrides: { x: { content: 'For X' }, facebook: { content: 'For Facebook' } } }, now })).when({ type: 'RetryPublish', now: later }).events();
    const data = (requested as Extract<PostEvent, { type: 'PublishRequested' }>).data;
    expect([x, fb].map((account) => publicationFor(data, account).content)).toEqual(['For X', 'For Facebook']);
  });

  it('still refuses the other fields', () => {
    spec.given(failedPost).when({ type: 'EditPost', changes: { mediaUrls: ['https://cdn.example.com/a.png'] }, now }).thenRefuses('post_not_editable');
  });
});

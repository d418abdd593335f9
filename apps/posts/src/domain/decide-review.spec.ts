import { Review } from './post.commands';
import { create, createdBy, later, now, refusal, run, spec } from './post.test-support';

/** Approvals (decide-review.ts): the workspace requires approval; a writer's key lacks the approve scope, a reviewer's has it. */
describe('Post decider: approvals', () => {
  const writer: Review = { required: true, canApprove: false, by: 'key-writer' };
  const reviewer: Review = { required: true, canApprove: true, by: 'key-reviewer' };
  const notRequired: Review = { required: false, canApprove: false, by: 'key-writer' };
  const at = '2030-01-01T13:00:00Z';
  const held = createdBy(create({ scheduledAt: at, review: writer }));
  const approve = { type: 'ApprovePost' as const, by: 'key-reviewer', note: 'ok', now: later };
  const reject = { type: 'RejectPost' as const, by: 'key-reviewer', note: 'off brand', now: later };

  it("holds a writer's post for review, keeping its status; a reviewer's, or any post when approval is not required, is not held", () => {
    expect(held.map((e) => e.type)).toEqual(['PostCreated', 'PostApprovalRequested']);
    expect(held[1].data).toEqual({ postId: 'p-1', requestedBy: 'key-writer', requestedAt: now.toISOString() });
    expect(createdBy(create({ scheduledAt: at, review: reviewer })).map((e) => e.type)).toEqual(['PostCreated']);
    expect(createdBy(create({ scheduledAt: at, review: notRequired })).map((e) => e.type)).toEqual(['PostCreated']);
    expect(createdBy(create({ scheduledAt: at })).map((e) => e.type)).toEqual(['PostCreated']);
  });

  it('refuses publishNow, and publishing a held post, to a writer with approval_required; a reviewer may', () => {
    expect(refusal(() => createdBy(create({ publishNow: true, review: writer }))).code).toBe('approval_required');
    expect(createdBy(create({ publishNow: true, review: reviewer })).map((e) => e.type)).toEqual(['PostCreated', 'PublishRequested']);
    expect(refusal(() => spec.given(held).when({ type: 'PublishPost', review: writer, now }).events()).code).toBe('approval_required');
    spec.given(held).when({ type: 'PublishPost', review: reviewer, now }).then([{ type: 'PublishRequested', data: expect.objectContaining({ attempt: 1 }) }]);
    // Once approved, the writer may publish it ahead of its time.
    spec.given(run(held, approve)).when({ type: 'PublishPost', review: writer, now: later }).then([{ type: 'PublishRequested', data: expect.objectContaining({ attempt: 1 }) }]);
  });

  it('approves and rejects with the reviewer and note; the same decision again changes nothing', () => {
    spec.given(held).when(approve).then([{ type: 'PostApproved', data: { postId: 'p-1', approvedBy: 'key-reviewer', note: 'ok', approvedAt: later.toISOString() } }]);
    spec.given(run(held, approve)).when(approve).thenNothing();
    spec.given(held).when(reject).then([{ type: 'PostRejected', data: { postId: 'p-1', rejectedBy: 'key-reviewer', note: 'off brand', rejectedAt: later.toISOString() } }]);
    spec.given(run(held, reject)).when(reject).thenNothing();
    // A reviewer may change their mind before the post's time.
    spec.given(run(held, reject)).when(approve).then([{ type: 'PostApproved', data: expect.objectContaining({ approvedBy: 'key-reviewer' }) }]);
  });

  it('refuses to review a post never held, or one whose time has passed, with post_not_reviewable', () => {
    const plain = createdBy(create({ scheduledAt: at }));
    expect(refusal(() => spec.given(plain).when(approve).events()).code).toBe('post_not_reviewable');
    expect(refusal(() => spec.given(held).when({ ...approve, now: new Date('2030-01-01T13:00:01Z') }).events()).code).toBe('post_not_reviewable');
  });

  it("sends an approved post back to review when a writer edits it; a reviewer's edit keeps it approved", () => {
    const approved = run(held, approve);
    spec.given(approved).when({ type: 'EditPost', changes: { content: 'changed' }, review: writer, now: later }).then([
      { type: 'PostEdited', data: expect.objectContaining({ content: 'changed' }) },
      { type: 'PostApprovalRequested', data: expect.objectContaining({ requestedBy: 'key-writer' }) },
    ]);
    spec.given(approved).when({ type: 'EditPost', changes: { content: 'changed' }, review: reviewer, now: later }).then([{ type: 'PostEdited', data: expect.objectContaining({ content: 'changed' }) }]);
    // Still pending: an edit asks for nothing new.
    spec.given(held).when({ type: 'EditPost', changes: { content: 'again' }, review: writer, now: later }).then([{ type: 'PostEdited', data: expect.objectContaining({ content: 'again' }) }]);
  });

  it('fails a held post that is due while pending or rejected with approval_missed (never published late); an approved one fires', () => {
    const fire = { type: 'FireScheduledPost' as const, now: new Date(at) };
    spec.given(held).when(fire).then([{ type: 'ScheduledPostExpired', data: expect.objectContaining({ error: expect.objectContaining({ code: 'approval_missed', retryable: false }) }) }]);
    spec.given(run(held, reject)).when(fire).then([{ type: 'ScheduledPostExpired', data: expect.objectContaining({ error: expect.objectContaining({ code: 'approval_missed' }) }) }]);
    spec.given(run(held, approve)).when(fire).then([{ type: 'PublishRequested', data: expect.objectContaining({ attempt: 1 }) }]);
    // Not yet due: nothing, approved or not.
    spec.given(held).when({ type: 'FireScheduledPost', now: later }).thenNothing();
  });
});

import { capabilitiesOf, COMMENT_CAPABILITIES } from './comment-capabilities';
import { PLATFORMS } from './platforms';

describe('capabilitiesOf: what the workspace can do with one comment', () => {
  it("is the platform's row for a comment on the post itself, on every platform", () => {
    for (const platform of PLATFORMS) expect(capabilitiesOf({ platform, parentCommentId: null })).toEqual(COMMENT_CAPABILITIES[platform]);
  });

  it('cannot hide a nested reply on Threads (top-level replies only: https://developers.facebook.com/docs/threads/reply-management); reply and delete stay', () => {
    expect(capabilitiesOf({ platform: 'threads', parentCommentId: '1790001' })).toEqual({ reply: true, hide: false, deleteOwnReply: true });
  });

  it.each(['facebook', 'instagram', 'youtube', 'x'] as const)('hides a nested reply on %s as any other comment', (platform) => {
    expect(capabilitiesOf({ platform, parentCommentId: 'parent-1' }).hide).toBe(true);
  });

  it('reads a comment stored before threads (no parentCommentId) as on the post', () => {
    expect(capabilitiesOf({ platform: 'threads' }).hide).toBe(true);
  });
});

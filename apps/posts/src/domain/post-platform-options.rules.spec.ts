import { TargetAccount } from '@app/contracts';
import { checkOptionedPublications } from './post-platform-options.rules';
import { refusal } from './post.test-support';

/**
 * checkOptionedPublications: the limits options shape, checked when the post is written — a
 * Facebook or Instagram reel or story is one media item (Meta's "Reels Publishing API" and
 * "Page Stories API", IG User Media REELS/STORIES), a story sends no text so none is counted,
 * and Mastodon counts spoiler_text with the text ("Post a new status",
 * https://docs.joinmastodon.org/methods/statuses/#create).
 */
const facebook: TargetAccount = { accountId: 'acc-fb', platform: 'facebook', handle: '@acme' };
const instagram: TargetAccount = { accountId: 'acc-ig', platform: 'instagram', handle: '@acme' };
const mastodon: TargetAccount = { accountId: 'acc-ma', platform: 'mastodon', handle: '@acme@mastodon.social' };
const video = 'https://cdn.example.com/clip.mp4';
const photo = 'https://cdn.example.com/a.jpg';
const post = (content: string, mediaUrls: string[], overrides = {}) => ({ content, mediaUrls, firstComments: [], overrides });

describe('checkOptionedPublications', () => {
  it('takes a reel or a story of one media item, and a feed post as before', () => {
    for (const placement of ['feed', 'reel', 'story']) {
      expect(() => checkOptionedPublications(post('Launch', [video]), { facebook: { placement }, instagram: { placement } }, [facebook, instagram])).not.toThrow();
    }
    expect(() => checkOptionedPublications(post('Launch', [video, photo]), { facebook: { placement: 'feed' } }, [facebook])).not.toThrow();
  });

  it('refuses a reel or a story of other than one media item, naming the platform and the reason', () => {
    expect(refusal(() => checkOptionedPublications(post('Launch', [video, photo]), { instagram: { placement: 'reel' } }, [instagram]))).toEqual({
      code: 'platform_option_invalid',
      details: { platform: 'instagram', accountId: 'acc-ig', reason: 'media_not_supported' },
    });
    expect(refusal(() => checkOptionedPublications(post('Launch', []), { facebook: { placement: 'story' } }, [facebook])).details).toMatchObject({ reason: 'media_not_supported' });
  });

  it("checks what each account publishes: an override's media count for a story", () => {
    const overrides = { 'acc-fb': { mediaUrls: [photo] } };
    expect(() => checkOptionedPublications(post('Launch', [video, photo], overrides), { facebook: { placement: 'story' } }, [facebook])).not.toThrow();
  });

  it("counts no text for a story (it sends none): an Instagram caption past 2,200 characters is no story's limit", () => {
    const long = 'a'.repeat(2_300);
    expect(() => checkOptionedPublications(post(long, [photo]), { instagram: { placement: 'story' } }, [instagram])).not.toThrow();
    expect(refusal(() => checkOptionedPublications(post(long, [video]), { instagram: { placement: 'reel' } }, [instagram])).details).toMatchObject({ reason: 'content_too_long' });
  });

  it("counts Mastodon's spoiler_text with the text toward 500 characters", () => {
    const text = 'a'.repeat(490);
    expect(() => checkOptionedPublications(post(text, []), { mastodon: { spoiler_text: 'Short CW' } }, [mastodon])).not.toThrow();
    expect(refusal(() => checkOptionedPublications(post(text, []), { mastodon: { spoiler_text: 'A longer warning' } }, [mastodon]))).toEqual({
      code: 'platform_option_invalid',
      details: { platform: 'mastodon', accountId: 'acc-ma', reason: 'content_too_long' },
    });
  });

  it('leaves accounts without options to their outcome at publication', () => {
    expect(() => checkOptionedPublications(post('a'.repeat(600), []), {}, [mastodon])).not.toThrow();
  });
});

import { publicationFor, TargetAccount } from '@app/contracts';
import { checkOverrides, checkPublications } from './post-overrides.rules';
import { checkPlatformOptions } from './post-platform-options.rules';
import { refusal } from './post.test-support';

const x1: TargetAccount = { accountId: 'acc-x1', platform: 'x', handle: '@acme' };
const x2: TargetAccount = { accountId: 'acc-x2', platform: 'x', handle: '@acme_jobs' };
const mastodon: TargetAccount = { accountId: 'acc-ma', platform: 'mastodon', handle: '@acme@mastodon.social' };
const accounts = [x1, x2, mastodon];
const post = { content: 'The post', mediaUrls: ['https://cdn.example.com/a.jpg'], altText: ['A photo'], firstComments: ['First'] };

describe('publicationFor', () => {
  it('layers the post, its platform override and its own, field by field', () => {
    const overrides = { x: { content: 'For X', firstComments: [] }, 'acc-x2': { mediaUrls: ['https://cdn.example.com/b.jpg'] } };
    expect(publicationFor({ ...post, overrides }, x1)).toEqual({ content: 'For X', mediaUrls: post.mediaUrls, altText: ['A photo'], firstComments: [] });
    // New media without alt text have none: the post's description never labels another picture.
    expect(publicationFor({ ...post, overrides }, x2)).toEqual({ content: 'For X', mediaUrls: ['https://cdn.example.com/b.jpg'], altText: [], firstComments: [] });
    expect(publicationFor({ ...post, overrides }, mastodon)).toEqual({ ...post });
  });

  it('is the post itself without overrides (events written before they existed)', () => {
    expect(publicationFor({ content: 'c', mediaUrls: [], firstComments: [] }, x1)).toEqual({ content: 'c', mediaUrls: [], altText: [], firstComments: [] });
  });
});

describe('checkOverrides', () => {
  it('keeps platform ids and stores account references (platform:@handle, any case, or id) as account ids', () => {
    const { overrides, requestKeys } = checkOverrides({ X: { content: 'a' }, 'x:@ACME_jobs': { content: 'b' }, 'acc-x1': {}, 'mastodon:@acme@mastodon.social': { content: 'c' } }, accounts);
    expect(overrides).toEqual({ x: { content: 'a' }, 'acc-x2': { content: 'b' }, 'acc-x1': {}, 'acc-ma': { content: 'c' } });
    expect(requestKeys).toEqual({ x: 'X', 'acc-x2': 'x:@ACME_jobs', 'acc-x1': 'acc-x1', 'acc-ma': 'mastodon:@acme@mastodon.social' });
  });

  it('refuses a key naming nothing the post targets, or an account two keys name', () => {
    expect(refusal(() => checkOverrides({ facebook: {} }, accounts))).toEqual({ code: 'invalid_override_key', details: { override: 'facebook' } });
    expect(refusal(() => checkOverrides({ 'x:@other': {} }, accounts))).toEqual({ code: 'invalid_override_key', details: { override: 'x:@other' } });
    expect(refusal(() => checkOverrides({ 'x:@acme': {}, 'acc-x1': {} }, accounts))).toMatchObject({ code: 'invalid_override_key', details: { override: 'acc-x1', sameAs: 'x:@acme' } });
  });

  it("applies the create rules of each field given, with the override's key in the details", () => {
    expect(refusal(() => checkOverrides({ x: { content: 'x'.repeat(10_001) } }, accounts))).toEqual({ code: 'content_too_long', details: { override: 'x' } });
    expect(refusal(() => checkOverrides({ x: { mediaUrls: ['ftp://a'] } }, accounts))).toMatchObject({ code: 'invalid_media_url', details: { override: 'x', index: 0 } });
    expect(refusal(() => checkOverrides({ x: { altText: ['a'] } }, accounts))).toMatchObject({ code: 'alt_text_mismatch', details: { override: 'x' } });
    expect(refusal(() => checkOverrides({ x: { firstComments: ['1', '2', '3', '4', '5', '6'] } }, accounts))).toMatchObject({ code: 'too_many_first_comments' });
  });
});

describe('checkPublications', () => {
  it('keeps the create rule as it was for a post without overrides', () => {
    expect(refusal(() => checkPublications({ content: ' ', mediaUrls: [], firstComments: [] }, accounts))).toMatchObject({ code: 'content_required' });
    // Too long for X, but without an override that is the X account's outcome at publication.
    expect(() => checkPublications({ content: 'x'.repeat(300), mediaUrls: [], firstComments: [] }, accounts)).not.toThrow();
  });

  it('needs content for every account once overrides exist, naming the one without', () => {
    const overrides = { x: { content: 'For X' } };
    expect(() => checkPublications({ content: '', mediaUrls: [], firstComments: [], overrides }, [x1, x2])).not.toThrow();
    expect(refusal(() => checkPublications({ content: '', mediaUrls: [], firstComments: [], overrides }, accounts))).toEqual({ code: 'content_required', details: { accountId: 'acc-ma' } });
  });

  it("checks an overridden account against its platform's limits, counted its way, naming the most specific key", () => {
    // 281 Latin characters are 281 weighted; 140 CJK characters weigh 280 (X's "Counting characters").
    expect(() => checkPublications({ ...post, overrides: { x: { content: '漢'.repeat(140) } } }, [x1])).not.toThrow();
    expect(refusal(() => checkPublications({ ...post, overrides: { x: { content: '漢'.repeat(141) } } }, [x1]))).toEqual({
      code: 'override_not_publishable',
      details: { override: 'x', accountId: 'acc-x1', platform: 'x', reason: 'content_too_long' },
    });
    const overrides = { x: { content: 'fine' }, 'acc-x2': { mediaUrls: [1, 2, 3, 4, 5].map((n) => `https://cdn.example.com/${n}.jpg`) } };
    expect(refusal(() => checkPublications({ ...post, overrides }, [x1, x2], { 'acc-x2': 'x:@acme_jobs' }))).toMatchObject({
      code: 'override_not_publishable',
      details: { override: 'x:@acme_jobs', accountId: 'acc-x2', reason: 'media_not_supported' },
    });
  });
});

describe('checkPlatformOptions', () => {
  it("takes each platform's documented options and values", () => {
    const options = { x: { reply_settings: 'following' }, mastodon: { visibility: 'unlisted', spoiler_text: 'Spoilers', language: 'en' } };
    expect(checkPlatformOptions(options, accounts)).toEqual(options);
  });

  it.each([
    ['an option the platform does not take', { x: { visibility: 'public' } }, { platform: 'x', option: 'visibility' }],
    ['a value outside the documented ones', { x: { reply_settings: 'everyone' } }, { platform: 'x', option: 'reply_settings', value: 'everyone' }],
    ['a value of the wrong type', { mastodon: { language: 42 } }, { platform: 'mastodon', option: 'language', value: 42 }],
    ['a language that is no ISO 639 code', { mastodon: { language: 'english' } }, { platform: 'mastodon', option: 'language' }],
    ['a platform the post does not target', { youtube: { privacyStatus: 'private' } }, { platform: 'youtube' }],
    ['no platform at all', { twitter: {} }, { platform: 'twitter' }],
  ])('refuses %s with platform_option_invalid', (_name, options, details) => {
    expect(refusal(() => checkPlatformOptions(options, accounts))).toMatchObject({ code: 'platform_option_invalid', details });
  });
});

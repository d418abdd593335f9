import type { Platform } from '@app/contracts';
import type { SandboxItem } from '@app/platform-sandbox';
import type { ConnectorAccount, PublishedLookup, PublishOutcome } from './connector';
import { mediaAccount, mediaPost, mediaSandbox, mediaUrl, postsOf, requestsOf } from './connectors/media.test-support';
import { CLOCK_SKEW_ALLOWANCE_MS } from './connectors/published-lookup';
import { PlatformCallFailed } from './http/platform-http';

/**
 * Reconciliation's lookup (findPublished) on every platform, against the sandbox serving each
 * platform's documented listing: X "Get Posts by User", LinkedIn Posts API "Find Posts by
 * Authors", Facebook Page Feed, Instagram "IG User Media", Threads "Retrieve a list of all a
 * user's threads", Bluesky "com.atproto.repo.listRecords", Mastodon "Get account's statuses",
 * YouTube "Channels: list" + "PlaylistItems: list", Pinterest "List Pins on board", TikTok
 * Display API "Query User Video List". The marker: the text sent, created since the attempt
 * started, with as many media items as sent where the listing tells.
 */

const env = mediaSandbox();

interface LookupCase {
  platform: Platform;
  attributes?: Record<string, string>;
  /** The media every post of this platform needs (none where text alone is a post). */
  required: () => string[];
  /**
   * Media-only posts: 'by_count' where the listing tells each item's media count (posts of one
   * and of two photos are told apart); 'ambiguous' where it does not (TikTok) or every post is
   * one video (YouTube), so two media-only posts in the window cannot be told apart.
   */
  mediaOnly: 'by_count' | 'ambiguous';
}

const photo = (name = 'photo.jpg') => mediaUrl(env, name);
const clip = () => mediaUrl(env, 'clip.mp4');

const CASES: LookupCase[] = [
  { platform: 'x', required: () => [], mediaOnly: 'by_count' },
  { platform: 'linkedin', required: () => [], mediaOnly: 'by_count' },
  { platform: 'facebook', required: () => [], mediaOnly: 'by_count' },
  { platform: 'instagram', required: () => [photo()], mediaOnly: 'by_count' },
  { platform: 'threads', required: () => [], mediaOnly: 'by_count' },
  { platform: 'bluesky', required: () => [], mediaOnly: 'by_count' },
  { platform: 'mastodon', required: () => [], mediaOnly: 'by_count' },
  { platform: 'pinterest', attributes: { boardId: 'board-42' }, required: () => [photo()], mediaOnly: 'by_count' },
  { platform: 'youtube', required: () => [clip()], mediaOnly: 'ambiguous' },
  { platform: 'tiktok', required: () => [clip()], mediaOnly: 'ambiguous' },
];

/** An attempt starting now: what the publisher sends and later looks up. */
function attempt(content: string, urls: string[]): PublishedLookup {
  return { ...mediaPost(content, urls), attemptStartedAt: new Date().toISOString() };
}

function publishedId(outcome: PublishOutcome): string {
  if (outcome.status !== 'published') throw new Error(`publish did not succeed: ${JSON.stringify(outcome)}`);
  return outcome.platformPostId;
}

/** Moves an item back in time on the platform (its creation time, and a Bluesky record's own createdAt). */
function backdate(item: SandboxItem, ms: number): void {
  const createdAt = new Date(Date.parse(item.createdAt) - ms).toISOString();
  item.createdAt = createdAt;
  if (item.extra.record) item.extra.record = JSON.stringify({ ...JSON.parse(item.extra.record), createdAt });
}

describe.each(CASES)('findPublished on $platform', (testCase) => {
  const connector = () => env.connectors.get(testCase.platform);
  const account = (): ConnectorAccount => mediaAccount(env, testCase.platform, { attributes: testCase.attributes });

  it('finds the post an attempt made by its text, created since the attempt started', async () => {
    const who = account();
    const request = attempt(`Launch day ${testCase.platform}`, testCase.required());
    const id = publishedId(await connector().publish(who, request));
    expect(await connector().findPublished(who, request)).toEqual({ platformPostId: id, url: expect.stringMatching(/^https:\/\//) });
  });

  it('answers null for a post that was never made, after looking', async () => {
    const who = account();
    await connector().publish(who, attempt('Something else entirely', testCase.required()));
    expect(await connector().findPublished(who, attempt('Never sent', testCase.required()))).toBeNull();
    expect(requestsOf(env, who, 'lookup')).toBeGreaterThan(0);
  });

  it('does not take an earlier post with the same text, made before the attempt started, for this one', async () => {
    const who = account();
    const earlier = attempt('Same words again', testCase.required());
    const earlierId = publishedId(await connector().publish(who, earlier));
    const made = postsOf(env, who);
    expect(made).toHaveLength(1);
    backdate(made[0], CLOCK_SKEW_ALLOWANCE_MS + 60_000);
    const retry = attempt('Same words again', testCase.required());
    expect(await connector().findPublished(who, retry)).toBeNull();
    const retryId = publishedId(await connector().publish(who, retry));
    expect(retryId).not.toBe(earlierId);
    expect(await connector().findPublished(who, retry)).toEqual({ platformPostId: retryId, url: expect.any(String) });
  });

  it('refuses to pick between two posts of the same text in the window (lookup_ambiguous, not retryable)', async () => {
    const who = account();
    const request = attempt('Posted twice', testCase.required());
    publishedId(await connector().publish(who, request));
    publishedId(await connector().publish(who, { ...request, idempotencyKey: `${request.idempotencyKey}-again` }));
    const lookup = connector().findPublished(who, request);
    await expect(lookup).rejects.toBeInstanceOf(PlatformCallFailed);
    await expect(lookup).rejects.toMatchObject({ error: { code: 'lookup_ambiguous', retryable: false } });
  });

  if (testCase.mediaOnly === 'by_count') {
    it('tells media-only posts apart by their media count', async () => {
      const who = account();
      const two = attempt('', [photo('first.jpg'), photo('second.jpg')]);
      const one = attempt('', [photo('only.jpg')]);
      const twoId = publishedId(await connector().publish(who, two));
      const oneId = publishedId(await connector().publish(who, one));
      expect(await connector().findPublished(who, one)).toMatchObject({ platformPostId: oneId });
      expect(await connector().findPublished(who, two)).toMatchObject({ platformPostId: twoId });
      expect(await connector().findPublished(who, attempt('', [photo('a.jpg'), photo('b.jpg'), photo('c.jpg')]))).toBeNull();
    });
  } else {
    it('cannot tell two media-only posts in the window apart: ambiguous, never a guess', async () => {
      const who = account();
      const request = attempt('', [clip()]);
      publishedId(await connector().publish(who, request));
      expect(await connector().findPublished(who, request)).toMatchObject({ platformPostId: expect.any(String) });
      publishedId(await connector().publish(who, attempt('', [clip()])));
      await expect(connector().findPublished(who, request)).rejects.toMatchObject({ error: { code: 'lookup_ambiguous' } });
    });
  }

  it('throws PlatformCallFailed when the lookup itself fails, so "could not look" is never "not there"', async () => {
    const who = account();
    const request = attempt('Looked up during an outage', testCase.required());
    publishedId(await connector().publish(who, request));
    env.sandbox.control.addFault({ platform: testCase.platform, account: who.accountId, operation: 'lookup', times: 'always', fault: { type: 'error', status: 503 } });
    try {
      const lookup = connector().findPublished(who, request);
      await expect(lookup).rejects.toBeInstanceOf(PlatformCallFailed);
      await expect(lookup).rejects.toMatchObject({ error: { retryable: true } });
    } finally {
      env.sandbox.control.clearFaults();
    }
  });
});

describe('findPublished reads older pages until the window starts', () => {
  it('finds a post behind a full page of later ones (X: pagination_token from meta.next_token)', async () => {
    const who = mediaAccount(env, 'x');
    const request = attempt('The first of many', []);
    const id = publishedId(await env.connectors.get('x').publish(who, request));
    for (let i = 0; i < 101; i++) publishedId(await env.connectors.get('x').publish(who, attempt(`Later post ${i}`, [])));
    expect(await env.connectors.get('x').findPublished(who, request)).toMatchObject({ platformPostId: id });
    expect(requestsOf(env, who, 'lookup')).toBe(2);
  });
});

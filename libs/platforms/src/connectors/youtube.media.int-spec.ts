import { expectPrivateMediaRefused, expectRefusedBeforeAnyCall, mediaAccount, mediaPost, mediaSandbox, mediaUrl, postsOf, requestsOf } from './media.test-support';
import { YOUTUBE_CHUNK_BYTES } from './youtube.connector';

/**
 * YouTube's video upload against the platform sandbox, which plays the resumable upload protocol
 * as documented in "Resumable Uploads" (https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol):
 * a session, then chunks (multiples of 256 KiB) answered 308 Resume Incomplete until the last,
 * which answers the video; and videos.insert's limits (https://developers.google.com/youtube/v3/docs/videos/insert).
 */

const env = mediaSandbox();
const youtube = () => env.connectors.get('youtube');

it('uploads a video in 8 MiB chunks from the spooled file: 308 for each but the last, which creates the video', async () => {
  const account = mediaAccount(env, 'youtube');
  const size = 2 * YOUTUBE_CHUNK_BYTES + 300_001;
  const outcome = await youtube().publish(account, mediaPost('Launch video\nAll the details', [mediaUrl(env, 'launch.mp4', { bytes: size, seconds: 42 })], ['ignored']));

  const [video] = postsOf(env, account);
  expect(outcome).toEqual({ status: 'published', platformPostId: video.id, url: `https://www.youtube.com/watch?v=${video.id}` });
  expect(video.text).toBe('Launch video\nAll the details');
  expect(video.extra.title).toBe('Launch video');
  expect(video.media).toEqual([expect.objectContaining({ contentType: 'video/mp4', declaredBytes: size, receivedBytes: size, durationSeconds: 42, altText: null })]);
  expect(requestsOf(env, account, 'upload_session')).toBe(1);
  expect(requestsOf(env, account, 'upload')).toBe(2);
  expect(requestsOf(env, account, 'publish')).toBe(1);
});

it('sends a video under one chunk in a single PUT, the irreversible one', async () => {
  const account = mediaAccount(env, 'youtube');
  const outcome = await youtube().publish(account, mediaPost('Short', [mediaUrl(env, 'short.webm', { bytes: 500_000 })]));
  expect(outcome.status).toBe('published');
  expect(requestsOf(env, account, 'upload')).toBe(0);
  expect(requestsOf(env, account, 'publish')).toBe(1);
  expect(postsOf(env, account)[0].media[0]).toMatchObject({ contentType: 'video/webm', receivedBytes: 500_000 });
});

it('retries a chunk Google answered 503 and goes on: one video', async () => {
  const account = mediaAccount(env, 'youtube');
  env.sandbox.control.addFault({ platform: 'youtube', account: account.accountId, operation: 'upload', times: 1, fault: { type: 'error', status: 503, message: 'backend error' } });
  const outcome = await youtube().publish(account, mediaPost('Retry', [mediaUrl(env, 'retry.mp4', { bytes: YOUTUBE_CHUNK_BYTES + 10 })]));
  expect(outcome.status).toBe('published');
  expect(requestsOf(env, account, 'upload')).toBe(2);
  expect(postsOf(env, account)).toHaveLength(1);
});

it('resumes from the Range Google holds when a 308 names less than the chunk sent ("Resumable Uploads", Step 4.3 "Resume the upload")', async () => {
  const account = mediaAccount(env, 'youtube');
  const size = 2 * YOUTUBE_CHUNK_BYTES + 300_001;
  // Google keeps three 256 KiB units of the first 8 MiB chunk: its 308 answers Range: bytes=0-786431.
  const kept = 3 * 256 * 1024;
  env.sandbox.control.addFault({ platform: 'youtube', account: account.accountId, operation: 'upload', times: 1, fault: { type: 'partial_upload', keepBytes: kept } });
  const outcome = await youtube().publish(account, mediaPost('Resumed', [mediaUrl(env, 'resumed.mp4', { bytes: size })]));

  expect(outcome.status).toBe('published');
  expect(env.sandbox.control.faults()).toEqual([]);
  // The sandbox takes a chunk only where its upload ends (no gap): every byte arrived, from the chunk resent at `kept`.
  expect(postsOf(env, account)[0].media[0]).toMatchObject({ declaredBytes: size, receivedBytes: size });
  // Chunks from 0 (partly kept), from 786,432, then the last from 786,432 + 8 MiB: two 308s, then the video.
  expect(requestsOf(env, account, 'upload')).toBe(2);
  expect(requestsOf(env, account, 'publish')).toBe(1);
});

describe.each([
  ['an image', () => [mediaUrl(env, 'poster.jpg')], 'media_type_not_allowed'],
  ['two videos', () => [mediaUrl(env, 'one.mp4'), mediaUrl(env, 'two.mp4')], 'media_not_supported'],
  ['a video over 12 hours', () => [mediaUrl(env, 'marathon.mp4', { seconds: 12 * 3600 + 1 })], 'media_not_supported'],
  ['a text file', () => [mediaUrl(env, 'script.txt')], 'media_type_not_allowed'],
])('refuses %s before any YouTube request', (_label, urls, code) => {
  it(`fails with ${code}`, () => expectRefusedBeforeAnyCall(env, mediaAccount(env, 'youtube'), mediaPost('refused', urls()), code));
});

it('refuses a media url on a private address outside the allow-list without connecting to it', () => expectPrivateMediaRefused(env, mediaAccount(env, 'youtube'), 'clip.mp4'));

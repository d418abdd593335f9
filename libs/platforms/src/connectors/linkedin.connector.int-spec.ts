import { RunningPlatformSandbox, startPlatformSandbox, provisionConnectorAccount } from '@app/platform-sandbox';
import type { ConnectorAccount, PublishRequest } from '../connector';
import { sandboxEndpoints } from '../endpoints';
import { ConnectorRegistry } from '../registry';

/**
 * The LinkedIn connector's API version and comments against the platform sandbox, which
 * plays "LinkedIn Marketing API Versioning" (https://learn.microsoft.com/en-us/linkedin/marketing/versioning:
 * a release is supported for a year, then 426 NONEXISTENT_VERSION) and the "Comments API"
 * (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/comments-api:
 * a comment is named by its commentUrn). A fresh sandbox per test: its clock moves.
 */

const retry = { baseDelayMs: 1, maxDelayMs: 2, requestTimeoutMs: 2_000, sleep: async () => undefined };
let sandbox: RunningPlatformSandbox;
let sequence = 0;

beforeEach(async () => {
  sandbox = await startPlatformSandbox();
});

afterEach(async () => {
  await sandbox.close();
});

const connector = (linkedInApiVersion?: string) => new ConnectorRegistry({ endpoints: sandboxEndpoints(sandbox.url), retry, linkedInApiVersion }).get('linkedin');
const post = (content: string): PublishRequest => ({ content, media: [], idempotencyKey: `post-${++sequence}` });

function member(): ConnectorAccount {
  const { accountId, platform, identity, credentials } = provisionConnectorAccount(sandbox, { platform: 'linkedin', handle: '@ada', key: `member-${++sequence}` });
  return { accountId, platform, identity, credentials };
}

it('sends the configured LinkedIn-Version, and LinkedIn refuses a release outside its year with 426 NONEXISTENT_VERSION', async () => {
  const account = member();
  expect(await connector('202506').publish(account, post('on a sunset version'))).toEqual({
    status: 'failed',
    error: { code: 'nonexistent_version', message: 'Requested version 202506 is not active', retryable: false },
  });
  expect(await connector('209901').publish(account, post('on a future version'))).toMatchObject({ status: 'failed', error: { code: 'nonexistent_version' } });
  expect(sandbox.control.published({ platform: 'linkedin' })).toEqual([]);
  expect(await connector().publish(account, post('on the default version'))).toMatchObject({ status: 'published' });
});

it('the default version is refused too once LinkedIn has sunset it, a year after its release (on the sandbox clock)', async () => {
  sandbox.control.advanceClock(366 * 86_400);
  expect(await connector().publish(member(), post('a year later'))).toMatchObject({ status: 'failed', error: { code: 'nonexistent_version' } });
});

it('lists comments by their URN, with the commenter as LinkedIn names them, and a reply to a listed comment lands under it', async () => {
  const linkedin = connector();
  const account = member();
  const published = await linkedin.publish(account, post('A post'));
  if (published.status !== 'published') throw new Error(`publish failed: ${JSON.stringify(published)}`);
  const fan = sandbox.control.addComment({ platform: 'linkedin', parentId: published.platformPostId, text: 'Nice', author: 'urn:li:person:fan1' });

  const [listed] = await linkedin.listComments(account, published.platformPostId);
  expect(listed).toMatchObject({ platformCommentId: fan.id, author: 'urn:li:person:fan1', text: 'Nice', inReplyToCommentId: null });
  expect(listed.platformCommentId).toMatch(/^urn:li:comment:\(urn:li:activity:\d+,\d+\)$/);

  const reply = await linkedin.comment(account, { kind: 'comment', platformCommentId: listed.platformCommentId, platformPostId: published.platformPostId }, 'Thanks!', 'c-1');
  expect(reply).toMatchObject({ status: 'published', platformPostId: expect.stringMatching(/^urn:li:comment:\(/) });
  const stored = sandbox.control.published({ platform: 'linkedin', kind: 'comment', account: account.accountId });
  expect(stored.map((item) => [item.id, item.parentId, item.text])).toEqual([[(reply as { platformPostId: string }).platformPostId, fan.id, 'Thanks!']]);
});

it('a reply naming a comment by its numeric id is what LinkedIn cannot find (404)', async () => {
  const linkedin = connector();
  const account = member();
  const published = await linkedin.publish(account, post('A post'));
  if (published.status !== 'published') throw new Error(`publish failed: ${JSON.stringify(published)}`);
  const fan = sandbox.control.addComment({ platform: 'linkedin', parentId: published.platformPostId, text: 'Nice', author: 'urn:li:person:fan1' });
  const numericId = fan.id.replace(/^.*,(\d+)\)$/, '$1');
  const reply = await linkedin.comment(account, { kind: 'comment', platformCommentId: numericId, platformPostId: published.platformPostId }, 'Thanks!', 'c-1');
  expect(reply).toMatchObject({ status: 'failed', error: { code: 'not_found', retryable: false } });
});

import { randomUUID } from 'node:crypto';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { connect, headers, JSONCodec, NatsConnection, Subscription } from 'nats';
import {
  DomainError,
  EventEnvelope,
  GetPublicationCommand,
  Platform,
  PublicationState,
  PublishRequestedData,
  RecordAccountOutcomeCommand,
  RecordAccountOutcomeReply,
  RecordFirstCommentCommand,
  RecordFirstCommentReply,
  StartAccountPublishCommand,
  StartAccountPublishReply,
  Subjects,
  TargetAccount,
} from '@app/contracts';
import { serveCommands } from '@app/messaging';
import { XPool } from '@app/quotas';
import { TEST_NATS_URL, until } from '@app/testing';
import { RunningPlatformSandbox } from '@app/platform-sandbox';
import { TestStack } from '../../../test/support/test-stack';
import { PublishRequestsWorker } from './publish-requests.worker';

/**
 * The publisher against real NATS, Postgres and the platform sandbox, with the
 * posts service played by a stand-in that answers the four publication commands
 * as their contract (libs/contracts/src/commands.ts) says. The same flows through
 * the real posts service and HTTP are in test/e2e/publish-*.e2e-spec.ts.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Short, so a lost answer (no reply in time) is seen quickly. */
const COMMAND_TIMEOUT_MS = 1_000;

interface FakeAccount {
  status: 'pending' | 'started' | 'published' | 'failed';
  /** The delivery id that recorded the start. */
  startedBy: string | null;
  attempt: number;
  outcome: RecordAccountOutcomeCommand['outcome'] | null;
  comments: Map<number, RecordFirstCommentCommand['outcome']>;
}

/** The posts side of the publication protocol, in memory: the first outcome recorded stands. */
class FakePostsService {
  readonly posts = new Map<string, Map<string, FakeAccount>>();
  readonly commentLog: RecordFirstCommentCommand[] = [];
  readonly startLog: StartAccountPublishCommand[] = [];
  /** Accounts whose start the service refuses with an internal error (a broken posts service). */
  readonly brokenStarts = new Set<string>();
  /** Accounts whose start the service records but whose answer never arrives (NATS died right after it recorded it). */
  readonly lostStartAnswers = new Set<string>();
  /** Accounts whose first start the service records but answers only after the publisher gave up waiting (NATS lost the answer). */
  readonly lateStartAnswers = new Set<string>();
  private subscriptions: Subscription[] = [];

  serve(nc: NatsConnection, subjects: Subjects): void {
    this.subscriptions = serveCommands(
      nc,
      subjects,
      'posts',
      {
        'posts.start-account-publish': async (p) => this.start(p),
        'posts.record-account-outcome': async (p) => this.record(p),
        'posts.record-first-comment': async (p) => this.recordComment(p),
        'posts.get-publication': async (p) => this.publication(p),
      },
      () => undefined,
    );
  }

  close(): void {
    for (const s of this.subscriptions) s.unsubscribe();
  }

  expect(postId: string, accounts: TargetAccount[], attempt = 1, status: FakeAccount['status'] = 'pending'): void {
    this.posts.set(postId, new Map(accounts.map((a) => [a.accountId, { status, startedBy: null, attempt, outcome: null, comments: new Map() }])));
  }

  account(postId: string, accountId: string): FakeAccount {
    const account = this.posts.get(postId)?.get(accountId);
    if (!account) throw new DomainError('not_found', 'no such account in the post');
    return account;
  }

  private async start(c: StartAccountPublishCommand): Promise<StartAccountPublishReply> {
    this.startLog.push(c);
    if (this.brokenStarts.has(c.accountId)) throw new Error('posts service is broken');
    const account = this.account(c.postId, c.accountId);
    if (account.status === 'pending') {
      account.status = 'started';
      account.startedBy = c.deliveryId;
      if (this.lostStartAnswers.has(c.accountId)) throw new Error('the answer to the recorded start was lost');
      if (this.lateStartAnswers.delete(c.accountId)) await sleep(COMMAND_TIMEOUT_MS + 200);
      return { decision: 'started' };
    }
    if (this.lostStartAnswers.has(c.accountId)) throw new Error('the answer to the start was lost');
    if (account.status === 'started') return { decision: account.startedBy === c.deliveryId ? 'started' : 'in_doubt' };
    return { decision: 'done' };
  }

  private record(c: RecordAccountOutcomeCommand): RecordAccountOutcomeReply {
    const account = this.account(c.postId, c.accountId);
    if (account.outcome) return { recorded: false };
    account.outcome = c.outcome;
    account.status = c.outcome.status;
    return { recorded: true };
  }

  /** First comments only (no thread parts here): a start is recorded once, the first outcome stands. */
  private recordComment(c: RecordFirstCommentCommand): RecordFirstCommentReply {
    this.commentLog.push(c);
    const account = this.account(c.postId, c.accountId);
    const recorded = account.comments.get(c.index);
    if (recorded && (c.outcome.status === 'started' || recorded.status !== 'started')) return { recorded: false };
    account.comments.set(c.index, c.outcome);
    return { recorded: true };
  }

  private publication(c: GetPublicationCommand): PublicationState {
    return {
      accounts: [...(this.posts.get(c.postId)?.entries() ?? [])].map(([accountId, a]) => ({
        accountId,
        status: a.status,
        platformPostId: a.outcome?.status === 'published' ? a.outcome.platformPostId : null,
        firstCommentsDone: [...a.comments.entries()].map(([index, outcome]) => ({ index, status: outcome.status })),
        threadDone: [],
      })),
    };
  }
}

describe('publisher (real NATS, Postgres and platform sandbox; posts service stand-in)', () => {
  let sandbox: RunningPlatformSandbox;
  let stack: TestStack;
  let nc: NatsConnection;
  let subjects: Subjects;
  let posts: FakePostsService;
  let publisher: NestFastifyApplication;
  let workspaceId: string;
  const ACK_WAIT_MS = 1_000;

  beforeAll(async () => {
    stack = await TestStack.start({
      apps: [],
      sandbox: true,
      overrides: {
        platformRetry: { baseDelayMs: 1, maxDelayMs: 5 },
        publisherAckWaitMs: ACK_WAIT_MS,
        publisherMaxDeliver: 3,
        xPoolMonthlyPosts: 3,
        commandTimeoutMs: COMMAND_TIMEOUT_MS,
      },
    });
    nc = await connect({ servers: TEST_NATS_URL });
    sandbox = stack.sandbox!;
    subjects = new Subjects(stack.config.natsNamespace);
    posts = new FakePostsService();
    posts.serve(nc, subjects);
    publisher = await stack.startApp('publisher');
  });
  afterAll(async () => {
    posts.close();
    await stack.stop();
    const jsm = await nc.jetstreamManager();
    await jsm.streams.delete(subjects.eventStreamName).catch(() => undefined);
    await nc.close();
  });
  beforeEach(async () => {
    sandbox.control.clearFaults();
    ({ workspaceId } = await stack.workspace());
  });

  /** `token`: the account's key in the sandbox (its items and requests); `accessToken`: what the platform issued it. */
  async function account(platform: Platform, name = platform): Promise<TargetAccount & { token: string; accessToken: string }> {
    const handle = `@${name}${randomUUID().slice(0, 8)}`;
    const connected = await stack.connect(workspaceId, platform, handle);
    const secrets = await stack.accounts.secrets(connected.id);
    return { accountId: connected.id, platform, handle: connected.handle, token: `token-${handle}`, accessToken: secrets!.credentials.accessToken };
  }

  async function requestPublish(accounts: TargetAccount[], extra: Partial<PublishRequestedData> = {}): Promise<PublishRequestedData> {
    const data: PublishRequestedData = {
      postId: randomUUID(), workspaceId, attempt: 1, accounts: accounts.map(({ accountId, platform, handle }) => ({ accountId, platform, handle })),
      content: `Launch day ${randomUUID().slice(0, 6)}`, mediaUrls: [], firstComments: [], requestedAt: new Date().toISOString(), ...extra,
    };
    if (!posts.posts.has(data.postId)) posts.expect(data.postId, data.accounts, data.attempt);
    const envelope: EventEnvelope<PublishRequestedData> = {
      eventId: randomUUID(), type: 'PublishRequested', version: 1, streamId: `post-${data.postId}`, revision: '1', position: '1:1',
      occurredAt: new Date().toISOString(), workspaceId, data,
    };
    const h = headers();
    h.set('Nats-Msg-Id', envelope.eventId);
    await nc.jetstream().publish(`${subjects.eventRoot}.posts.PublishRequested`, JSONCodec().encode(envelope), { headers: h });
    return data;
  }

  const outcomeOf = (postId: string, a: TargetAccount) => posts.account(postId, a.accountId).outcome;
  const allDone = (job: PublishRequestedData) => () => job.accounts.every((a) => outcomeOf(job.postId, a) !== null);
  const publications = (a: { token: string }) => sandbox.control.published({ account: a.token, kind: 'post' });

  it('publishes to every account in parallel and records each platform id', async () => {
    const accounts = [await account('x'), await account('facebook'), await account('mastodon')];
    const x = new XPool(stack.db.pool, 3);
    const job = await requestPublish(accounts);
    await until(allDone(job));
    for (const a of accounts) {
      const [item] = publications(a);
      expect(publications(a)).toHaveLength(1);
      expect(item.text).toBe(job.content);
      expect(outcomeOf(job.postId, a)).toEqual({ status: 'published', platformPostId: item.id, url: expect.stringMatching(/^https:\/\//), reconciled: false });
    }
    expect(await x.used(workspaceId)).toBe(1);
  });

  it('records a rejected account as failed with the platform error, keeps the others, and refunds a rejected X post', async () => {
    const [x, facebook, mastodon] = [await account('x'), await account('facebook'), await account('mastodon')];
    sandbox.control.addFault({ platform: 'x', account: x.token, fault: { type: 'error', status: 403, message: 'You are not allowed to create a Tweet with duplicate content.' } });
    sandbox.control.addFault({ platform: 'facebook', account: facebook.token, fault: { type: 'error', status: 400, code: '506', message: 'Duplicate status message' } });
    const job = await requestPublish([x, facebook, mastodon]);
    await until(allDone(job));
    expect(outcomeOf(job.postId, x)).toEqual({ status: 'failed', error: { code: 'duplicate_content', message: expect.any(String), retryable: false } });
    expect(outcomeOf(job.postId, facebook)).toMatchObject({ status: 'failed', error: { code: 'duplicate_post' } });
    expect(outcomeOf(job.postId, mastodon)).toMatchObject({ status: 'published' });
    expect(await new XPool(stack.db.pool, 3).used(workspaceId)).toBe(0);
  });

  it('fails an X account with x_quota_exhausted without calling X when the pool is used up', async () => {
    const [x, other] = [await account('x'), await account('x')];
    const pool = new XPool(stack.db.pool, 3);
    for (let i = 0; i < 3; i++) await pool.draw(workspaceId);
    const job = await requestPublish([x, other]);
    await until(allDone(job));
    for (const a of [x, other]) {
      expect(outcomeOf(job.postId, a)).toEqual({ status: 'failed', error: { code: 'x_quota_exhausted', message: expect.any(String), retryable: true } });
      expect(sandbox.control.requestCount({ platform: 'x', account: a.token })).toBe(0);
    }
  });

  it('posts first comments in order under each live item; after a failure the later ones of that account are skipped, other accounts unaffected', async () => {
    const [mastodon, facebook] = [await account('mastodon'), await account('facebook')];
    sandbox.control.addFault({ platform: 'facebook', account: facebook.token, operation: 'comment', fault: { type: 'error', status: 400, code: '100', message: 'Invalid parameter' } });
    const job = await requestPublish([mastodon, facebook], { firstComments: ['first', 'second', 'third'] });
    // Six outcomes (each posted comment's start recorded before it as well).
    await until(() => posts.commentLog.filter((c) => c.postId === job.postId && c.outcome.status !== 'started').length === 6);
    const [post] = publications(mastodon);
    const comments = sandbox.control.published({ account: mastodon.token, kind: 'comment' });
    expect(comments.map((c) => [c.text, c.parentId])).toEqual([['first', post.id], ['second', post.id], ['third', post.id]]);
    const recorded = posts.account(job.postId, mastodon.accountId).comments;
    expect([0, 1, 2].map((i) => recorded.get(i))).toEqual(comments.map((c) => ({ status: 'posted', platformCommentId: c.id, url: expect.stringContaining(c.id) })));
    const fb = posts.account(job.postId, facebook.accountId).comments;
    expect([0, 1, 2].map((i) => fb.get(i))).toEqual(
      ['invalid_parameter', 'first_comment_skipped', 'first_comment_skipped'].map((code) => ({ status: 'failed', error: expect.objectContaining({ code }) })),
    );
    expect(sandbox.control.requestCount({ platform: 'facebook', account: facebook.token, operation: 'comment' })).toBe(1);
  });

  it('reconciles an account an earlier delivery started (in doubt) and never publishes it again', async () => {
    const [found, lost] = [await account('mastodon'), await account('facebook')];
    const postId = randomUUID();
    const content = `Already out ${postId.slice(0, 6)}`;
    // An earlier delivery started both and crashed: one request reached the platform, the other did not.
    posts.expect(postId, [found, lost], 1, 'started');
    await fetch(`${sandbox.url}/mastodon/api/v1/statuses`, { method: 'POST', headers: { authorization: `Bearer ${found.accessToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ status: content }) });
    const job = await requestPublish([found, lost], { postId, content });
    await until(allDone(job));
    expect(outcomeOf(postId, found)).toEqual({ status: 'published', platformPostId: publications(found)[0].id, url: expect.any(String), reconciled: true });
    expect(outcomeOf(postId, lost)).toMatchObject({ status: 'failed', error: { code: 'outcome_unknown', retryable: false } });
    expect(publications(found)).toHaveLength(1);
    expect(sandbox.control.requestCount({ platform: 'facebook', account: lost.token, operation: 'publish' })).toBe(0);
  });

  it('reconciles a dropped answer: the post was made, it is recorded published once', async () => {
    const facebook = await account('facebook');
    sandbox.control.addFault({ platform: 'facebook', account: facebook.token, fault: { type: 'drop' } });
    const job = await requestPublish([facebook]);
    await until(allDone(job));
    expect(publications(facebook)).toHaveLength(1);
    expect(outcomeOf(job.postId, facebook)).toEqual({ status: 'published', platformPostId: publications(facebook)[0].id, url: expect.any(String), reconciled: true });
  });

  it('skips an account that already has an outcome (a redelivery after the ack was lost)', async () => {
    const mastodon = await account('mastodon');
    const postId = randomUUID();
    posts.expect(postId, [mastodon], 1, 'published');
    posts.account(postId, mastodon.accountId).outcome = { status: 'published', platformPostId: '1', url: 'https://example.com/1', reconciled: false };
    await requestPublish([mastodon], { postId });
    await until(() => posts.startLog.some((c) => c.postId === postId));
    await sleep(100);
    expect(outcomeOf(postId, mastodon)).toMatchObject({ platformPostId: '1' });
    expect(sandbox.control.requestCount({ platform: 'mastodon', account: mastodon.token })).toBe(0);
  });

  it('on the last delivery after failures, closes the accounts still open as publish_abandoned', async () => {
    const [ok, broken] = [await account('mastodon'), await account('bluesky')];
    posts.brokenStarts.add(broken.accountId);
    const job = await requestPublish([ok, broken]);
    await until(allDone(job), 8_000);
    posts.brokenStarts.delete(broken.accountId);
    expect(outcomeOf(job.postId, ok)).toMatchObject({ status: 'published' });
    expect(outcomeOf(job.postId, broken)).toEqual({ status: 'failed', error: { code: 'publish_abandoned', message: expect.any(String), retryable: true } });
    expect(publications(ok)).toHaveLength(1);
  });

  it('on the last delivery, closes an account whose start was recorded as outcome_unknown: the call may have gone out, so it is not retryable', async () => {
    const started = await account('mastodon');
    posts.lostStartAnswers.add(started.accountId);
    const job = await requestPublish([started]);
    await until(allDone(job), 8_000);
    posts.lostStartAnswers.delete(started.accountId);
    expect(posts.account(job.postId, started.accountId).status).toBe('failed');
    expect(outcomeOf(job.postId, started)).toEqual({ status: 'failed', error: { code: 'outcome_unknown', message: expect.stringContaining('check the account'), retryable: false } });
    expect(publications(started)).toHaveLength(0);
  });

  it('a start whose answer was lost (no reply in time) is asked again by the same run with its delivery id: told started, published once', async () => {
    const mastodon = await account('mastodon');
    posts.lateStartAnswers.add(mastodon.accountId);
    const job = await requestPublish([mastodon]);
    await until(allDone(job), 8_000);
    const starts = posts.startLog.filter((c) => c.postId === job.postId);
    expect(starts).toHaveLength(2);
    expect(starts[1].deliveryId).toBe(starts[0].deliveryId);
    expect(outcomeOf(job.postId, mastodon)).toEqual({ status: 'published', platformPostId: publications(mastodon)[0].id, url: expect.any(String), reconciled: false });
    expect(publications(mastodon)).toHaveLength(1);
  });

  it('a first comment an earlier delivery started is recorded outcome_unknown and never sent; the later ones are skipped', async () => {
    const facebook = await account('facebook');
    const postId = randomUUID();
    // An earlier delivery published the account, recorded comment 0's start and crashed before its outcome.
    posts.expect(postId, [facebook], 1, 'published');
    posts.account(postId, facebook.accountId).outcome = { status: 'published', platformPostId: 'fb-1', url: 'https://example.com/fb-1', reconciled: false };
    posts.account(postId, facebook.accountId).comments.set(0, { status: 'started' });
    await requestPublish([facebook], { postId, firstComments: ['one', 'two'] });
    const comments = posts.account(postId, facebook.accountId).comments;
    await until(() => comments.get(1)?.status === 'failed');
    expect([0, 1].map((i) => comments.get(i))).toEqual(
      ['outcome_unknown', 'first_comment_skipped'].map((code) => ({ status: 'failed', error: expect.objectContaining({ code }) })),
    );
    expect(sandbox.control.requestCount({ platform: 'facebook', account: facebook.token, operation: 'comment' })).toBe(0);
  });

  it('a publisher stopped mid-publish never publishes twice, and the post still ends', async () => {
    const [slow, fast] = [await account('mastodon'), await account('facebook')];
    sandbox.control.addFault({ platform: 'mastodon', account: slow.token, fault: { type: 'latency', ms: ACK_WAIT_MS + 500 } });
    const job = await requestPublish([slow, fast]);
    await until(() => sandbox.control.requestCount({ platform: 'mastodon', account: slow.token, operation: 'publish' }) === 1);
    await stack.stopApp('publisher');
    sandbox.control.clearFaults();
    publisher = await stack.startApp('publisher');
    await until(allDone(job), 15_000);
    expect(publications(slow)).toHaveLength(1);
    expect(publications(fast)).toHaveLength(1);
    expect(sandbox.control.requestCount({ platform: 'mastodon', account: slow.token, operation: 'publish' })).toBe(1);
    // Stopped after one ack wait of grace, before the slow answer came: the restarted publisher found it on the platform.
    expect(outcomeOf(job.postId, slow)).toMatchObject({ status: 'published', reconciled: true });
    // The redelivery was another run, with another delivery id: told in_doubt, it looked the post up.
    expect(new Set(posts.startLog.filter((c) => c.postId === job.postId && c.accountId === slow.accountId).map((c) => c.deliveryId)).size).toBe(2);
  });

  it('reports the consumer as not consuming when its durable consumer is gone', async () => {
    const worker = publisher.get(PublishRequestsWorker);
    expect(await worker.problem()).toBeNull();
    const jsm = await nc.jetstreamManager();
    await jsm.consumers.delete(subjects.eventStreamName, 'publisher');
    expect(await worker.problem()).not.toBeNull();
    await stack.stopApp('publisher');
    publisher = await stack.startApp('publisher');
    expect(await publisher.get(PublishRequestsWorker).problem()).toBeNull();
  });
});

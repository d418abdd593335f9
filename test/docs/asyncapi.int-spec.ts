import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { connect, JSONCodec, Msg, NatsConnection } from 'nats';
import { AccountEventType, AccountMetricsEvent, CommentEventType, EventEnvelope, Platform, PostEventType, PostMetricsEvent, QueueEventType, Subjects } from '@app/contracts';
import { TEST_NATS_URL, until } from '@app/testing';
import { buildAsyncApiDocument } from '../../apps/gateway/src/openapi/asyncapi/asyncapi-document';
import { DOCUMENT_FILES, serialize } from '../../apps/gateway/src/openapi/write-documents';
import { TestStack, tokenOf } from '../support/test-stack';

const repoRoot = join(__dirname, '..', '..');

/** Exhaustive by type: a new event type in the contract fails the type check until it is listed here. */
const POST_EVENT_TYPES: Record<PostEventType, true> = {
  PostCreated: true, PublishRequested: true, AccountPublishStarted: true, AccountPublished: true, AccountPublishFailed: true,
  PublishCompleted: true, FirstCommentStarted: true, FirstCommentPosted: true, FirstCommentFailed: true, ThreadPartStarted: true, ThreadPartPosted: true, ThreadPartFailed: true, PostEdited: true, PostDeleted: true, ScheduledPostExpired: true,
  PostApprovalRequested: true, PostApproved: true, PostRejected: true,
};
const COMMENT_EVENT_TYPES: Record<CommentEventType, true> = {
  CommentReceived: true, CommentReplyStarted: true, CommentReplied: true, CommentHidden: true, CommentUnhidden: true, CommentReplyDeleted: true, CommentReclassified: true,
};
const ACCOUNT_EVENT_TYPES: Record<AccountEventType, true> = { AccountConnected: true, AccountReauthRequired: true, AccountDisconnected: true };
const QUEUE_EVENT_TYPES: Record<QueueEventType, true> = { PostingScheduleSet: true, QueueSlotClaimed: true, QueueSlotReleased: true };
const METRICS_EVENT_TYPES: Record<PostMetricsEvent['type'] | AccountMetricsEvent['type'], true> = { ItemMetricsObserved: true, ItemMetricsCollectionFailed: true, AccountMetricsObserved: true };

type AsyncApi = { channels: Record<string, { address: string }>; components: { messages: Record<string, { payload: { $ref: string } }> } };

/** docs/asyncapi.json against the code that generates it and against what a plain NATS subscriber really receives. */
describe('AsyncAPI document', () => {
  const committed: AsyncApi = JSON.parse(readFileSync(join(repoRoot, DOCUMENT_FILES.asyncapi), 'utf8'));
  let stack: TestStack;
  let nc: NatsConnection;
  const received: Array<{ subject: string; headers: Record<string, string | undefined>; payload: EventEnvelope }> = [];
  let offsetMs = 0;

  beforeAll(async () => {
    stack = await TestStack.start({
      sandbox: true,
      // A clock the test can move: the six-hour expiry without waiting six hours.
      overrides: { schedulerIntervalMs: 100, publishWaitMs: 8_000, now: () => new Date(Date.now() + offsetMs) },
    });
    nc = await connect({ servers: TEST_NATS_URL });
    const codec = JSONCodec<EventEnvelope>();
    nc.subscribe(`${new Subjects(stack.config.natsNamespace).eventRoot}.>`, {
      callback: (_error, msg: Msg) =>
        received.push({ subject: msg.subject, headers: { msgId: msg.headers?.get('Nats-Msg-Id'), requestId: msg.headers?.get('x-request-id') }, payload: codec.decode(msg.data) }),
    });
    await nc.flush();
  });
  afterAll(async () => {
    await nc?.close();
    await stack?.stop();
  });

  it('is the document the code generates (npm run openapi rewrites it)', () => {
    const current = serialize(buildAsyncApiDocument(repoRoot));
    expect(serialize(committed) === current ? 'current' : `${DOCUMENT_FILES.asyncapi} is stale: run npm run openapi`).toBe('current');
  });

  it('documents every event type of the contract unions, and nothing else', () => {
    expect(Object.keys(committed.components.messages).sort()).toEqual(
      [...Object.keys(POST_EVENT_TYPES), ...Object.keys(COMMENT_EVENT_TYPES), ...Object.keys(ACCOUNT_EVENT_TYPES), ...Object.keys(QUEUE_EVENT_TYPES), ...Object.keys(METRICS_EVENT_TYPES)].sort(),
    );
    expect(committed.channels.QueueSlotClaimed.address).toBe('social.v1.queues.QueueSlotClaimed');
    expect(committed.channels.ItemMetricsObserved.address).toBe('social.v1.postmetrics.ItemMetricsObserved');
    expect(committed.channels.AccountMetricsObserved.address).toBe('social.v1.accountmetrics.AccountMetricsObserved');
    expect(committed.channels.AccountReauthRequired.address).toBe('social.v1.accounts.AccountReauthRequired');
    expect(committed.channels.PostCreated.address).toBe('social.v1.posts.PostCreated');
    expect(committed.channels.CommentReplied.address).toBe('social.v1.comments.CommentReplied');
  });

  /** Each received event of these types against its documented subject, message id and payload schema. */
  function expectDocumented(types: string[]): void {
    const ajv = new Ajv({ strict: false, allErrors: true });
    ajv.addSchema(committed, 'asyncapi');
    for (const event of received.filter((e) => types.includes(e.payload.type))) {
      const type = event.payload.type;
      expect(event.subject).toBe(`${stack.config.natsNamespace}.${committed.channels[type].address}`);
      expect(event.headers.msgId).toBe(event.payload.eventId);
      const validate = ajv.getSchema(`asyncapi${committed.components.messages[type].payload.$ref}`)!;
      expect({ type, valid: validate(event.payload), errors: validate.errors ?? null }).toEqual({ type, valid: true, errors: null });
    }
  }

  it('every account event an account goes through reaches a plain subscriber as documented', async () => {
    const { key } = await stack.workspace(['read', 'write', 'publish', 'accounts']);
    const made = stack.sandbox!.control.provisionAccount({ platform: 'mastodon', handle: 'events' });
    const connected = await stack.request('POST', '/api/v1/accounts', { key, body: { platform: 'mastodon', accessToken: made.accessToken, instanceUrl: `${stack.sandbox!.url}/mastodon` } });
    const id = connected.body.accounts[0].id as string;
    // The user revokes the app: the next publish is refused and the account needs re-authorisation.
    stack.sandbox!.control.revokeAccount(made.identity.key);
    await stack.request('POST', '/api/v1/posts', { key, body: { content: 'refused', accounts: [id], publishNow: true } });
    expect((await stack.request('DELETE', `/api/v1/accounts/${id}`, { key })).status).toBe(200);
    const everyType = Object.keys(ACCOUNT_EVENT_TYPES);
    await until(() => everyType.every((type) => received.some((event) => event.payload.type === type && event.payload.streamId === `account-${id}`)), 15_000);
    expectDocumented(everyType);
  });

  it('every queue event reaches a plain subscriber as documented: a schedule set, a slot claimed by a queued post, freed by its deletion', async () => {
    const { key, workspaceId } = await stack.workspace(['read', 'write']);
    const account = await stack.connect(workspaceId, 'mastodon' as Platform, `@queue${Math.random().toString(36).slice(2, 6)}`);
    const schedule = await stack.request('PUT', `/api/v1/accounts/${account.id}/schedule`, { key, body: { timezone: 'Europe/Berlin', slots: [{ day: 'mon', time: '09:00' }] } });
    expect(schedule.status).toBe(200);
    const queued = await stack.request('POST', '/api/v1/posts', { key, body: { content: 'queued', accounts: [account.id], queue: true } });
    expect(queued.status).toBe(201);
    expect((await stack.request('DELETE', `/api/v1/posts/${queued.body.post.id}`, { key })).status).toBe(204);
    const everyType = Object.keys(QUEUE_EVENT_TYPES);
    await until(() => everyType.every((type) => received.some((event) => event.payload.type === type && event.payload.streamId === `queue-${account.id}`)), 15_000);
    expectDocumented(everyType);
  });

  it('every post event a post goes through reaches a plain subscriber as documented: subject, headers, payload schema', async () => {
    const { key, workspaceId } = await stack.workspace();
    const account = async (handle: string) => {
      const connected = await stack.connect(workspaceId, 'mastodon' as Platform, `@${handle}${Math.random().toString(36).slice(2, 6)}`);
      return { token: tokenOf(connected.handle), ref: `mastodon:${connected.handle}` };
    };
    const [ok, failsOnce, commentFails] = [await account('ok'), await account('once'), await account('nocomment')];
    const sandbox = stack.sandbox!.control;
    sandbox.addFault({ platform: 'mastodon', account: failsOnce.token, fault: { type: 'error', status: 422, message: 'Validation failed' } });
    sandbox.addFault({ platform: 'mastodon', account: commentFails.token, operation: 'comment', times: 'always', fault: { type: 'error', status: 422, message: 'Validation failed' } });
    const request = (method: string, path: string, body?: unknown) => stack.request(method, path, { key, body });

    // Draft → edit → publish (partial, one first comment and one thread part failing) → retry of the failed account.
    const draft = await request('POST', '/api/v1/posts', { content: 'v1', accounts: [ok.ref, failsOnce.ref, commentFails.ref], firstComments: ['first!'], thread: [{ content: 'more' }] });
    expect(draft.status).toBe(201);
    const id = draft.body.post.id as string;
    expect((await request('PATCH', `/api/v1/posts/${id}`, { content: 'v2' })).status).toBe(200);
    expect((await request('POST', `/api/v1/posts/${id}/publish`)).body.post.status).toBe('partial');
    expect((await request('POST', `/api/v1/posts/${id}/retry`)).body.post.status).toBe('published');
    // A deleted draft, and a scheduled post found seven hours late.
    const other = await request('POST', '/api/v1/posts', { content: 'gone', accounts: [ok.ref] });
    expect((await request('DELETE', `/api/v1/posts/${other.body.post.id}`)).status).toBe(204);
    await request('POST', '/api/v1/posts', { content: 'late', accounts: [ok.ref], scheduledAt: new Date(Date.now() + 3_600_000).toISOString() });
    // Approvals: a writer's draft held for review, rejected, edited (held again) and approved.
    const [reviewer, writer] = [await stack.key(workspaceId, ['read', 'approve']), await stack.key(workspaceId, ['read', 'write'])];
    const review = (path: string, body: unknown) => stack.request(path.startsWith('/api/v1/workspace') ? 'PATCH' : 'POST', path, { key: reviewer, body });
    expect((await review('/api/v1/workspace', { approvalRequired: true })).status).toBe(200);
    const held = await stack.request('POST', '/api/v1/posts', { key: writer, body: { content: 'review me', accounts: [ok.ref] } });
    const heldId = held.body.post.id as string;
    expect((await review(`/api/v1/posts/${heldId}/reject`, { note: 'no' })).status).toBe(200);
    expect((await stack.request('PATCH', `/api/v1/posts/${heldId}`, { key: writer, body: { content: 'better' } })).status).toBe(200);
    expect((await review(`/api/v1/posts/${heldId}/approve`, {})).status).toBe(200);
    offsetMs = 7 * 3_600_000;

    const everyType = Object.keys(POST_EVENT_TYPES);
    const deadline = Date.now() + 15_000;
    while (!everyType.every((type) => received.some((event) => event.payload.type === type)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const postEvents = received.filter((event) => event.payload.streamId.startsWith('post-'));
    expect([...new Set(postEvents.map((event) => event.payload.type))].sort()).toEqual(everyType.sort());

    expectDocumented(everyType);
    // Events an HTTP request caused carry the id of that request.
    expect(received.find((event) => event.payload.type === 'PostEdited')!.headers.requestId).toEqual(expect.stringMatching(/\S/));
  });

  it('a payload that breaks its documented schema is refused (the check can fail)', () => {
    const ajv = new Ajv({ strict: false });
    ajv.addSchema(committed, 'asyncapi');
    const validate = ajv.getSchema('asyncapi#/components/schemas/PostDeletedEvent')!;
    const envelope = { eventId: 'e', type: 'PostDeleted', version: 1, streamId: 'post-1', revision: '0', position: '1:1', occurredAt: 'now', workspaceId: 'w' };
    expect(validate({ ...envelope, data: { postId: 'p', deletedAt: 'now' } })).toBe(true);
    expect(validate({ ...envelope, data: { postId: 'p' } })).toBe(false);
    expect(validate({ ...envelope, type: 'PostCreated', data: { postId: 'p', deletedAt: 'now' } })).toBe(false);
  });
});

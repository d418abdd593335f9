import { Logger } from '@nestjs/common';
import { trace } from '@opentelemetry/api';
import { connect, NatsConnection, Subscription } from 'nats';
import { CreatePostCommand, DomainError, Subjects } from '@app/contracts';
import { currentTraceContext, runInRequestContext, traceContextOf } from '@app/observability';
import { TEST_NATS_URL, testNamespace } from '@app/testing';
import { CommandClient, serveCommands } from './command-bus';

const CREATE: CreatePostCommand = { workspaceId: 'w-1', body: { content: 'hello' }, idempotencyKey: null };

/** How a command's failure reaches the caller (real NATS request/reply). */
describe('command replies (real NATS)', () => {
  let nc: NatsConnection;
  let subjects: Subjects;
  let served: Subscription[] = [];
  const logged: unknown[] = [];

  beforeAll(async () => {
    nc = await connect({ servers: TEST_NATS_URL });
  });
  afterEach(() => served.splice(0).forEach((subscription) => subscription.unsubscribe()));
  afterAll(() => nc.close());

  async function failWith(error: unknown): Promise<DomainError> {
    subjects = new Subjects(testNamespace());
    served = serveCommands(nc, subjects, 'test', { 'posts.create': () => Promise.reject(error) }, (failure) => logged.push(failure));
    await nc.flush();
    const failure = await new CommandClient(nc, subjects, 2_000).request('posts.create', CREATE).catch((caught: unknown) => caught);
    expect(failure).toBeInstanceOf(DomainError);
    return failure as DomainError;
  }

  it.each([
    ['connection refused', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['the server shutting down', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['a connection cut mid-query', new Error('Connection terminated unexpectedly')],
  ])('a handler that lost its database (%s) answers service_unavailable, so the gateway answers 503', async (_name, error) => {
    logged.length = 0;
    expect(await failWith(error)).toMatchObject({ code: 'service_unavailable', message: 'the posts service cannot reach its database; retry later' });
    expect(logged).toEqual([error]);
  });

  it('any other failure stays internal_error and is handed to onError', async () => {
    logged.length = 0;
    const bug = new TypeError('x is not a function');
    expect(await failWith(bug)).toMatchObject({ code: 'internal_error' });
    expect(logged).toEqual([bug]);
  });

  it('a refusal keeps its code', async () => {
    expect(await failWith(new DomainError('content_too_long', 'too long'))).toMatchObject({ code: 'content_too_long', message: 'too long' });
  });
});

/**
 * The command name types both ends (CommandMap in contracts). The `@ts-expect-error` lines are the
 * type-level check: `tsc` fails on an unused one, so each line must stay a compile error.
 */
describe('the typed command seam (real NATS)', () => {
  let nc: NatsConnection;
  let served: Subscription[] = [];

  beforeAll(async () => {
    nc = await connect({ servers: TEST_NATS_URL });
  });
  afterAll(async () => {
    served.forEach((subscription) => subscription.unsubscribe());
    await nc.close();
  });

  it('a handler answers its own reply type; a caller sends its own payload type and gets the reply typed', async () => {
    const subjects = new Subjects(testNamespace());
    served = serveCommands(
      nc,
      subjects,
      'test',
      {
        'posts.fire-scheduled': async ({ postId }) => ({ fired: postId === 'post-1' }),
        // @ts-expect-error the reply of another command (fire-scheduled's) for abandon-publication
        'posts.abandon-publication': async () => ({ fired: true }),
      },
      () => undefined,
    );
    await nc.flush();
    const client = new CommandClient(nc, subjects, 2_000);

    const reply = await client.request('posts.fire-scheduled', { postId: 'post-1' });
    expect(reply.fired).toBe(true);
    // @ts-expect-error the reply of fire-scheduled has no `abandoned`
    expect(reply.abandoned).toBeUndefined();

    // What a wrong payload would do at run time (the compiler refuses it): the handler finds no postId.
    // @ts-expect-error a create's payload sent as fire-scheduled
    expect(await client.request('posts.fire-scheduled', CREATE)).toEqual({ fired: false });
  });
});

/** The commands of one event-loop turn for one family travel as one message each way (issue 22). */
describe('commands batched per turn (real NATS)', () => {
  const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
  let nc: NatsConnection;
  let subjects: Subjects;
  let served: Subscription[] = [];
  const logged: unknown[] = [];
  /** What each handler saw of the request and trace it ran in, by post id. */
  const seen = new Map<string, { requestId: string | undefined; traceId: string | undefined }>();

  beforeAll(async () => {
    Logger.overrideLogger(false);
    nc = await connect({ servers: TEST_NATS_URL });
  });
  beforeEach(async () => {
    subjects = new Subjects(testNamespace());
    logged.length = 0;
    seen.clear();
    served = serveCommands(
      nc,
      subjects,
      'test',
      {
        'posts.fire-scheduled': async ({ postId }, { requestId }) => {
          seen.set(postId, { requestId, traceId: trace.getSpanContext(currentTraceContext())?.traceId });
          if (postId === 'refused') throw new DomainError('not_found', `no post ${postId}`);
          if (postId === 'crashed') throw new TypeError('x is not a function');
          if (postId === 'silent') await new Promise(() => undefined);
          if (postId === 'slow') await new Promise((resolve) => setTimeout(resolve, 1_000));
          return { fired: postId.startsWith('post-') };
        },
      },
      (failure) => logged.push(failure),
    );
    await nc.flush();
  });
  afterEach(() => served.splice(0).forEach((subscription) => subscription.unsubscribe()));
  afterAll(() => nc.close());

  /** Every message sent on the posts family's batch subject and on fire-scheduled's own, while `fn` runs. */
  async function wireDuring(fn: () => Promise<unknown>): Promise<{ batches: unknown[][]; singles: number }> {
    const batchWire = nc.subscribe(subjects.commandBatch('posts'));
    const singleWire = nc.subscribe(subjects.command('posts.fire-scheduled'));
    await nc.flush();
    await fn();
    await nc.flush();
    batchWire.unsubscribe();
    singleWire.unsubscribe();
    const batches: unknown[][] = [];
    for await (const msg of batchWire) batches.push(msg.json<unknown[]>());
    let singles = 0;
    for await (const _msg of singleWire) singles++;
    return { batches, singles };
  }

  const fire = (client: CommandClient, postId: string) =>
    runInRequestContext({ requestId: `req-${postId}`, trace: traceContextOf({ traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01` }) }, () =>
      client.request('posts.fire-scheduled', { postId }).catch((caught: unknown) => caught),
    );

  it("sends a turn's commands as one message; each gets its own answer and runs in its own request and trace", async () => {
    const client = new CommandClient(nc, subjects, 2_000);
    let answers: unknown[] = [];
    const wire = await wireDuring(async () => {
      answers = await Promise.all(['post-1', 'other', 'post-3'].map((postId) => fire(client, postId)));
    });
    expect(answers).toEqual([{ fired: true }, { fired: false }, { fired: true }]);
    expect(wire.singles).toBe(0);
    expect(wire.batches).toHaveLength(1);
    expect(wire.batches[0]).toHaveLength(3);
    expect(Object.fromEntries(seen)).toEqual({
      'post-1': { requestId: 'req-post-1', traceId: TRACE_ID },
      other: { requestId: 'req-other', traceId: TRACE_ID },
      'post-3': { requestId: 'req-post-3', traceId: TRACE_ID },
    });
  });

  it('a lone command of its turn still travels as a message of its own', async () => {
    const client = new CommandClient(nc, subjects, 2_000);
    const wire = await wireDuring(() => fire(client, 'post-1'));
    expect(wire).toEqual({ batches: [], singles: 1 });
  });

  it("one command's refusal or crash leaves its neighbours' answers alone", async () => {
    const client = new CommandClient(nc, subjects, 2_000);
    const [first, refused, crashed, last] = await Promise.all(['post-1', 'refused', 'crashed', 'post-4'].map((postId) => fire(client, postId)));
    expect(first).toEqual({ fired: true });
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: 'not_found', message: 'no post refused' });
    expect(crashed).toBeInstanceOf(DomainError);
    expect(crashed).toMatchObject({ code: 'internal_error' });
    expect(last).toEqual({ fired: true });
    expect(logged).toEqual([new TypeError('x is not a function')]);
  });

  it("a slow command does not hold back its neighbours' answers; those settled together come in one message", async () => {
    const client = new CommandClient(nc, subjects, 5_000);
    const answered: Record<string, number> = {};
    const started = performance.now();
    // Every inbox's traffic (the server is shared), kept to the batch's own reply subject below.
    const inboxes = nc.subscribe('_INBOX.>');
    const batchWire = nc.subscribe(subjects.commandBatch('posts'), { max: 1 });
    await nc.flush();
    await Promise.all(['slow', 'post-2', 'post-3'].map((postId) => fire(client, postId).then(() => (answered[postId] = performance.now() - started))));
    await nc.flush();
    inboxes.unsubscribe();
    expect(answered['post-2']).toBeLessThan(500);
    expect(answered['post-3']).toBeLessThan(500);
    expect(answered.slow).toBeGreaterThanOrEqual(900);
    let replySubject: string | undefined;
    for await (const msg of batchWire) replySubject = msg.reply;
    const answers: unknown[][] = [];
    for await (const msg of inboxes) if (msg.subject === replySubject) answers.push(msg.json<unknown[]>());
    expect(answers.map((answer) => answer.length)).toEqual([2, 1]);
  });

  it('a command of a batch not answered in time is service_unavailable; its neighbour keeps its answer', async () => {
    const client = new CommandClient(nc, subjects, 300);
    const started = performance.now();
    const [silent, answered] = await Promise.all(['silent', 'post-2'].map((postId) => fire(client, postId)));
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(silent).toMatchObject({ code: 'service_unavailable', message: 'the posts service did not answer; retry later' });
    expect(answered).toEqual({ fired: true });
  });

  it('a lone command not answered in time is service_unavailable', async () => {
    const client = new CommandClient(nc, subjects, 300);
    expect(await fire(client, 'silent')).toMatchObject({ code: 'service_unavailable', message: 'the posts service did not answer; retry later' });
  });

  it('a family split between two apps (queue groups): each answers the commands it serves, the client gathers both', async () => {
    const other = serveCommands(nc, subjects, 'other', { 'posts.get-publication': async () => ({ accounts: [] }) }, () => undefined);
    await nc.flush();
    const client = new CommandClient(nc, subjects, 2_000);
    try {
      const [fired, publication] = await Promise.all([client.request('posts.fire-scheduled', { postId: 'post-1' }), client.request('posts.get-publication', { postId: 'post-1', attempt: 1 })]);
      expect(fired).toEqual({ fired: true });
      expect(publication).toEqual({ accounts: [] });
    } finally {
      other.forEach((subscription) => subscription.unsubscribe());
    }
  });

  it('commands and answers too large for one message between them leave in several, each still answered (max_payload)', async () => {
    // Subjects of its own: in the shared ones the batch would go to either member of the queue group.
    const subjects = new Subjects(testNamespace());
    const served = serveCommands(
      nc,
      subjects,
      'test',
      // An answer as large as the attempt number says, naming the post it answers.
      { 'posts.get-publication': async ({ postId, attempt }) => ({ accounts: [{ accountId: postId.slice(0, 8), status: 'published', platformPostId: 'x'.repeat(attempt), firstCommentsDone: [], threadDone: [] }] }) },
      () => undefined,
    );
    await nc.flush();
    const client = new CommandClient(nc, subjects, 5_000);
    const ask = (postId: string, attempt: number) => client.request('posts.get-publication', { postId, attempt });
    try {
      // Three answers of 400 KB: more than one 1 MiB message holds.
      const large = await Promise.all(['answer-1', 'answer-2', 'answer-3'].map((postId) => ask(postId, 400_000)));
      expect(large.map(({ accounts: [account] }) => [account.accountId, account.platformPostId?.length])).toEqual([
        ['answer-1', 400_000],
        ['answer-2', 400_000],
        ['answer-3', 400_000],
      ]);
      // Two commands of 600 KB: each goes alone.
      const wire = nc.subscribe(subjects.commandBatch('posts'));
      const asked = await Promise.all([ask(`big-1${'p'.repeat(600_000)}`, 1), ask(`big-2${'p'.repeat(600_000)}`, 1)]);
      expect(asked.map(({ accounts: [account] }) => account.accountId)).toEqual([`big-1${'p'.repeat(3)}`, `big-2${'p'.repeat(3)}`]);
      await nc.flush();
      wire.unsubscribe();
      let batches = 0;
      for await (const _msg of wire) batches++;
      expect(batches).toBe(0);
    } finally {
      served.forEach((subscription) => subscription.unsubscribe());
    }
  });

  it('an app from before batches (serving each command on its own subject only) still answers a batched turn, each command once', async () => {
    const subjects = new Subjects(testNamespace());
    const received: string[] = [];
    const old = nc.subscribe(subjects.command('posts.fire-scheduled'), {
      queue: 'old',
      callback: (_error, msg) => {
        const { postId } = JSON.parse(new TextDecoder().decode(msg.data)) as { postId: string };
        received.push(postId);
        msg.respond(new TextEncoder().encode(JSON.stringify({ ok: true, value: { fired: postId } })));
      },
    });
    try {
      await nc.flush();
      const client = new CommandClient(nc, subjects, 10_000);
      const started = performance.now();
      const answers = await Promise.all(['post-1', 'post-2', 'post-3'].map((postId) => fire(client, postId)));
      expect(answers).toEqual([{ fired: 'post-1' }, { fired: 'post-2' }, { fired: 'post-3' }]);
      expect(received.sort()).toEqual(['post-1', 'post-2', 'post-3']);
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      old.unsubscribe();
    }
  });

  it('with nobody serving the family, a batch and a lone command are service_unavailable at once (no responders), not after the timeout', async () => {
    const client = new CommandClient(nc, new Subjects(testNamespace()), 10_000);
    const started = performance.now();
    const answers = await Promise.all(['post-1', 'post-2'].map((postId) => fire(client, postId)));
    const lone = await fire(client, 'post-3');
    expect(performance.now() - started).toBeLessThan(5_000);
    for (const answer of [...answers, lone]) expect(answer).toMatchObject({ code: 'service_unavailable' });
  });
});

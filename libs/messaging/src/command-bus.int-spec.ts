import { connect, NatsConnection, Subscription } from 'nats';
import { CreatePostCommand, DomainError, Subjects } from '@app/contracts';
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

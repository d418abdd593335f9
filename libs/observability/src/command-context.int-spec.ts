import { Logger } from '@nestjs/common';
import { trace } from '@opentelemetry/api';
import { connect, NatsConnection } from 'nats';
import { GetPublicationCommand, Subjects } from '@app/contracts';
import { CommandClient, serveCommands } from '@app/messaging';
import { TEST_NATS_URL, testNamespace } from '@app/testing';
import { commandsHandled } from './metrics';
import { currentRequestId, runInRequestContext } from './request-context';
import { currentTraceContext, traceContextOf } from './trace-propagation';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;

/** A command sent while handling a request carries its request id and trace context; the handler runs in both. */
describe('command context over NATS (real NATS)', () => {
  let nc: NatsConnection;
  let subjects: Subjects;
  let client: CommandClient;
  /** What the handler saw of the request and trace it ran in (its reply is the command's own). */
  let seen: { requestId: string | undefined; traceId: string | null } | null = null;
  const GET: GetPublicationCommand = { postId: 'p-1', attempt: 1 };

  beforeAll(async () => {
    Logger.overrideLogger(false);
    nc = await connect({ servers: TEST_NATS_URL });
    subjects = new Subjects(testNamespace());
    client = new CommandClient(nc, subjects, 2_000);
    serveCommands(
      nc,
      subjects,
      'test',
      {
        'posts.get-publication': async () => {
          seen = { requestId: currentRequestId(), traceId: trace.getSpanContext(currentTraceContext())?.traceId ?? null };
          return { accounts: [] };
        },
      },
      () => undefined,
    );
    await nc.flush();
  });
  afterAll(() => nc.close());

  it('carries traceparent and x-request-id headers, and the handler sees the same trace and request', async () => {
    const wire = nc.subscribe(subjects.command('posts.get-publication'), { max: 1 });
    seen = null;
    await runInRequestContext({ requestId: 'req-trace-1', trace: traceContextOf({ traceparent: TRACEPARENT }) }, () => client.request('posts.get-publication', GET));
    expect(seen).toEqual({ requestId: 'req-trace-1', traceId: TRACE_ID });
    for await (const msg of wire) {
      expect(msg.headers?.get('traceparent')).toMatch(new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-01$`));
      expect(msg.headers?.get('x-request-id')).toBe('req-trace-1');
    }
  });

  it('outside any request nothing is invented: no trace, no request id; the command is counted', async () => {
    const before = (await commandsHandled.get()).values.find((v) => v.labels.command === 'posts.get-publication')?.value ?? 0;
    seen = null;
    await expect(client.request('posts.get-publication', GET)).resolves.toEqual({ accounts: [] });
    expect(seen).toEqual({ requestId: undefined, traceId: null });
    const after = (await commandsHandled.get()).values.find((v) => v.labels.command === 'posts.get-publication' && v.labels.outcome === 'ok')?.value;
    expect(after).toBe(before + 1);
  });
});

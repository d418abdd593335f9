import { Logger } from '@nestjs/common';
import { JsonLogger, registerLogSecret } from './json-logger';
import { runInRequestContext } from './request-context';
import { traceContextOf } from './trace-propagation';

function capture() {
  const lines: string[] = [];
  return { lines, parsed: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>), destination: { write: (line: string) => void lines.push(line) } };
}

describe('JsonLogger', () => {
  it('writes one JSON line per call with level, context and message', () => {
    const out = capture();
    new JsonLogger({ destination: out.destination }).warn('disk almost full', 'Storage');
    expect(out.parsed()).toEqual([expect.objectContaining({ level: 'warn', context: 'Storage', msg: 'disk almost full', time: expect.any(String) })]);
  });

  it('carries the request id and trace id of the context it is written in, and none outside it', () => {
    const out = capture();
    const logger = new JsonLogger({ destination: out.destination });
    const trace = traceContextOf({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' });
    runInRequestContext({ requestId: 'req-42', trace }, () => logger.log({ msg: 'handled', command: 'posts.create' }, 'Commands:posts'));
    logger.log('idle');
    const [inside, outside] = out.parsed();
    expect(inside).toMatchObject({ requestId: 'req-42', traceId: '0af7651916cd43dd8448eb211c80319c', command: 'posts.create', msg: 'handled' });
    expect(outside.requestId).toBeUndefined();
  });

  it('error(message, stack, context) keeps the stack; levels not enabled write nothing', () => {
    const out = capture();
    const logger = new JsonLogger({ levels: ['error'], destination: out.destination });
    logger.log('dropped');
    logger.error('boom', 'Error: boom\n    at x', 'Worker');
    expect(out.parsed()).toEqual([expect.objectContaining({ level: 'error', msg: 'boom', stack: 'Error: boom\n    at x', context: 'Worker' })]);
  });

  it('alsoLogFrom keeps the log-level lines of those contexts alone when log is off (npm start: the access log, not the module loading)', () => {
    const out = capture();
    const logger = new JsonLogger({ levels: ['warn', 'error', 'fatal'], alsoLogFrom: ['HTTP'], destination: out.destination });
    logger.log('InstanceLoader dependencies initialized', 'InstanceLoader');
    logger.log('GET /api/v1/posts 200 3.1ms', 'HTTP');
    logger.verbose('GET /health/ready 200 0.4ms', 'HTTP');
    logger.warn('slow consumer', 'Worker');
    expect(out.parsed().map((line) => [line.level, line.context, line.msg])).toEqual([
      ['info', 'HTTP', 'GET /api/v1/posts 200 3.1ms'],
      ['warn', 'Worker', 'slow consumer'],
    ]);
  });

  it('never writes a secret: headers, tokens, API keys in text, the token encryption key', () => {
    const out = capture();
    const logger = new JsonLogger({ destination: out.destination });
    registerLogSecret('S0VZLWJ5dGVzLWJhc2U2NA==');
    logger.log({ msg: 'request with Authorization: Bearer sp_live1', headers: { authorization: 'Bearer sp_live1' }, account: { accessToken: 'token-@acme' } });
    logger.error(new Error('config S0VZLWJ5dGVzLWJhc2U2NA== rejected key sp_live1'));
    const text = out.lines.join('');
    for (const secret of ['sp_live1', 'token-@acme', 'S0VZLWJ5dGVzLWJhc2U2NA==']) expect(text).not.toContain(secret);
    expect(out.lines).toHaveLength(2);
  });

  it("serves Nest's Logger once installed as its logger", () => {
    const out = capture();
    Logger.overrideLogger(new JsonLogger({ destination: out.destination }));
    new Logger('Scheduler').log('tick');
    Logger.overrideLogger(false);
    expect(out.parsed()).toEqual([expect.objectContaining({ context: 'Scheduler', msg: 'tick' })]);
  });
});

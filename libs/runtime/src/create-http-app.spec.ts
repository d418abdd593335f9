import { Body, Controller, Logger, Module, Post } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHttpApp } from './create-http-app';

@Controller()
class EchoController {
  private readonly logger = new Logger('Echo');

  @Post('echo/:id')
  async echo(@Body() body: unknown): Promise<unknown> {
    // After an await, as real handlers are: the request's context must survive it.
    await new Promise((resolve) => setTimeout(resolve, 5));
    this.logger.log('echoing');
    return body;
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

/** The bootstrap every app shares: JSON logs with the request id, x-request-id on every answer. */
describe('createHttpApp', () => {
  let app: NestFastifyApplication;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    app = await createHttpApp({ module: EchoModule }, { logDestination: { write: (line: string) => void lines.push(JSON.parse(line)) } });
    // A real socket, not inject(): the body then arrives in the socket's own async scope.
    await app.listen(0, '127.0.0.1');
  });
  afterAll(() => app.close());
  beforeEach(() => (lines.length = 0));

  async function post(headers: Record<string, string> = {}) {
    const response = await fetch(`${await app.getUrl()}/echo/7`, { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json', ...headers } });
    await response.text();
    return { statusCode: response.status, headers: { 'x-request-id': response.headers.get('x-request-id') } };
  }

  it("keeps the client's x-request-id, answers with it, and every line of the request carries it", async () => {
    const response = await post({ 'x-request-id': 'client-id-1' });
    expect(response.statusCode).toBe(201);
    expect(response.headers['x-request-id']).toBe('client-id-1');
    expect(lines).toEqual([
      expect.objectContaining({ context: 'Echo', msg: 'echoing', requestId: 'client-id-1' }),
      expect.objectContaining({ context: 'HTTP', route: '/echo/:id', method: 'POST', status: 201, requestId: 'client-id-1' }),
    ]);
  });

  it('makes a request id when the client sent none or one that could forge log content', async () => {
    const cases: Record<string, string>[] = [{}, { 'x-request-id': 'bad id" {"level":"fatal"}' }];
    for (const headers of cases) {
      const response = await post(headers);
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(lines.every((l) => l.requestId === response.headers['x-request-id'])).toBe(true);
      lines.length = 0;
    }
  });
});

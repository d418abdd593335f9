import { Duplex } from 'node:stream';
import { answerClientError, serverTimeouts } from './server-options';

/** A socket that records what is written to it. */
function recordingSocket(): Duplex & { written: string; destroyedWith: unknown } {
  const socket = new Duplex({ read() {}, write(chunk, _encoding, done) { socket.written += chunk.toString(); done(); } }) as Duplex & { written: string; destroyedWith: unknown };
  socket.written = '';
  const destroy = socket.destroy.bind(socket);
  socket.destroy = (error?: Error) => {
    socket.destroyedWith = error;
    return destroy();
  };
  return socket;
}

const answerTo = (code: string) => {
  const socket = recordingSocket();
  const error = Object.assign(new Error(code), { code });
  answerClientError(error, socket);
  const [head, body] = socket.written.split('\r\n\r\n');
  return { head, body: body ? JSON.parse(body) : null, closed: socket.destroyedWith === error };
};

/** node's clientError event (https://nodejs.org/api/http.html#event-clienterror), answered in the one error shape. */
describe('answers to requests node cannot parse', () => {
  it.each([
    ['HPE_HEADER_OVERFLOW', '431 Request Header Fields Too Large', 'headers_too_large'],
    ['ERR_HTTP_REQUEST_TIMEOUT', '408 Request Timeout', 'request_timeout'],
    ['HPE_INVALID_METHOD', '400 Bad Request', 'malformed_request'],
    ['HPE_INVALID_HEADER_TOKEN', '400 Bad Request', 'malformed_request'],
  ])('%s: %s with %s, then the connection is closed', (code, statusLine, errorCode) => {
    const answer = answerTo(code);
    expect(answer.head).toMatch(new RegExp(`^HTTP/1.1 ${statusLine}\r\n`));
    expect(answer.head).toContain('Connection: close');
    expect(answer.body).toEqual({ error: { code: errorCode, message: expect.any(String) } });
    expect(answer.closed).toBe(true);
  });

  it('writes nothing over an answer already begun (a timeout while the response is written): the connection is only closed', () => {
    const socket = recordingSocket();
    Object.assign(socket, { _httpMessage: { headersSent: true } });
    const error = Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });
    answerClientError(error, socket);
    expect({ written: socket.written, closed: socket.destroyedWith === error }).toEqual({ written: '', closed: true });
  });

  it('writes nothing to a connection the client reset', () => {
    expect(answerTo('ECONNRESET')).toEqual({ head: '', body: null, closed: false });
  });
});

describe('the gateway server timeouts', () => {
  it('are the configured ones, checked often enough for the shortest to hold', () => {
    expect(serverTimeouts({ httpHeadersTimeoutMs: 10_000, httpRequestTimeoutMs: 30_000, httpConnectionTimeoutMs: 120_000 })).toEqual({
      requestTimeout: 30_000,
      connectionTimeout: 120_000,
      http: { headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1_000 },
    });
    expect(serverTimeouts({ httpHeadersTimeoutMs: 600, httpRequestTimeoutMs: 1_200, httpConnectionTimeoutMs: 5_000 })).toMatchObject({ http: { connectionsCheckingInterval: 150 } });
  });
});

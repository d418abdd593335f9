import { connect, NatsConnection } from 'nats';

/**
 * A connection that reconnects for ever: a NATS restart must not end the process.
 * noAsyncTraces: the client would otherwise build an Error (a captured stack) for
 * every request and JetStream publish, up to 7% of the projector's and the
 * gateway's CPU in the benches (issue 11). Errors keep their code (TIMEOUT, 503 no
 * responders), which is all the callers read; they lose only the caller's stack.
 */
export async function connectNats(url: string, name: string): Promise<NatsConnection> {
  return connect({ servers: url, name, maxReconnectAttempts: -1, reconnectTimeWait: 250, noAsyncTraces: true });
}

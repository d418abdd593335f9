import { connect, NatsConnection } from 'nats';

/** A connection that reconnects for ever: a NATS restart must not end the process. */
export async function connectNats(url: string, name: string): Promise<NatsConnection> {
  return connect({ servers: url, name, maxReconnectAttempts: -1, reconnectTimeWait: 250 });
}

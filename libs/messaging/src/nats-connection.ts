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

/** How long a shutdown waits for the connection to drain before closing it (a drain takes milliseconds while the server is up). */
export const NATS_DRAIN_WITHIN_MS = 5_000;

/**
 * Drains the connection (pending messages handled, subscriptions closed), but closes it after
 * `withinMs` if the drain has not finished: a drain needs the server, and with the server gone
 * a connection that reconnects for ever would wait for it for ever, so a process told to stop
 * (npm start's Ctrl-C reaches the nats-server it started too) would never stop.
 */
export async function drainWithin(nc: NatsConnection, withinMs = NATS_DRAIN_WITHIN_MS): Promise<void> {
  if (nc.isClosed()) return;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), withinMs)));
  const drained = nc.isDraining() ? nc.closed().then(() => 'drained' as const) : nc.drain().then(() => 'drained' as const, () => 'drained' as const);
  try {
    if ((await Promise.race([drained, timedOut])) === 'timeout') await nc.close();
  } finally {
    clearTimeout(timer);
  }
}

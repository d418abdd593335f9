import { createServer } from 'node:net';

/** A port npm start listens on, and the variable that moves it. */
export interface LocalPort {
  /** What listens there, for people: "the API", "the platform sandbox". */
  what: string;
  host: string;
  port: number;
  /** The environment variable that sets the port. */
  variable: string;
}

/** A port npm start needs is taken: the message says which, and how to move it. */
export class PortInUse extends Error {
  constructor(readonly local: LocalPort) {
    super(
      `${local.what} cannot listen on ${local.host}:${local.port}: the port is in use (another npm start still running?). ` +
        `Stop what holds it, or set ${local.variable} to another port (e.g. ${local.variable}=${local.port + 100} npm start).`,
    );
    this.name = 'PortInUse';
  }
}

/** Whether something already listens on the port: an attempt to listen there, closed at once. */
function isTaken(host: string, port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(true) : reject(error)));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(false)));
  });
}

/**
 * Refuses to go on when a port it will listen on is taken, before anything is started:
 * finding out after the database and NATS are up costs the newcomer the wait and leaves
 * more to stop. Port 0 (any free port) is never taken.
 */
export async function checkPortsFree(ports: LocalPort[]): Promise<void> {
  for (const local of ports) {
    if (local.port !== 0 && (await isTaken(local.host, local.port))) throw new PortInUse(local);
  }
}

/** A listen that failed because its port was taken meanwhile (EADDRINUSE), as PortInUse; anything else as it is. */
export function explainListenError(error: unknown, ports: LocalPort[]): unknown {
  const failure = error as NodeJS.ErrnoException & { port?: number };
  if (failure?.code !== 'EADDRINUSE') return error;
  const local = ports.find((candidate) => candidate.port === failure.port) ?? (ports.length === 1 ? ports[0] : undefined);
  return local ? new PortInUse(local) : error;
}

import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request the receiver took, verified as a client would verify it (the standardwebhooks library). */
export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  payload: { type: string; eventId: string; position: string | null; workspaceId: string; data: any };
  /** Whether the signature verified with the secret the test gave (null when it gave none). */
  verified: boolean | null;
  /** The status the receiver answered. */
  answered: number;
}

/** What the receiver answers the n-th request with (1-based): a status, or 'hang' (never answers); answer headers (Retry-After) when it says so. */
export type ReceiverBehaviour = (
  request: number,
  headers: IncomingMessage['headers'],
) => number | 'hang' | { delayMs?: number; status: number; headers?: Record<string, string> };

/**
 * A real HTTP receiver of webhooks on loopback for tests: records every request,
 * verifies each with the standardwebhooks library (as a receiver would, with the
 * endpoint's secret), answers as the test says.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  secrets: string[] = [];
  behaviour: ReceiverBehaviour = () => 204;
  /** Requests taken since the last reset, answered or not. */
  requests = 0;
  private readonly hanging = new Set<() => void>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<WebhookReceiver> {
    let receiver!: WebhookReceiver;
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const answer = receiver.behaviour(++receiver.requests, request.headers);
        const finish = (status: number, headers: Record<string, string> = {}) => {
          receiver.record(request, body, status);
          response.writeHead(status, headers).end();
        };
        if (answer === 'hang') {
          const release = () => response.destroy();
          receiver.hanging.add(release);
          request.socket.on('close', () => receiver.hanging.delete(release));
        } else if (typeof answer === 'number') finish(answer);
        else setTimeout(() => finish(answer.status, answer.headers), answer.delayMs ?? 0);
      });
    });
    receiver = new WebhookReceiver(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  get host(): string {
    return `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private record(request: IncomingMessage, body: string, answered: number): void {
    const headers = { 'webhook-id': String(request.headers['webhook-id']), 'webhook-timestamp': String(request.headers['webhook-timestamp']), 'webhook-signature': String(request.headers['webhook-signature']) };
    const verified = this.secrets.length ? this.secrets.some((secret) => verifies(secret, body, headers)) : null;
    this.received.push({ id: headers['webhook-id'], timestamp: headers['webhook-timestamp'], signature: headers['webhook-signature'], body, payload: JSON.parse(body), verified, answered });
  }

  /** Forgets what it received and answers 204 again. */
  reset(): void {
    this.received.length = 0;
    this.requests = 0;
    this.behaviour = () => 204;
  }

  /** Deliveries answered 2xx. */
  get delivered(): ReceivedWebhook[] {
    return this.received.filter((r) => r.answered >= 200 && r.answered < 300);
  }

  async close(): Promise<void> {
    for (const release of this.hanging) release();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Standard Webhooks verification exactly as a client does it (throws on a bad or stale signature). */
export function verifies(secret: string, body: string, headers: Record<string, string>): boolean {
  try {
    new Webhook(secret).verify(body, headers);
    return true;
  } catch {
    return false;
  }
}

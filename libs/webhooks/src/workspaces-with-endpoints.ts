import { Client, Pool } from 'pg';

/** Channel the endpoint store notifies, with the workspace id, when an endpoint is created or updated (in the same statement). */
export const ENDPOINTS_CHANGED_CHANNEL = 'webhook_endpoints_changed';

/** How long a skipped event is remembered, to be taken again if its workspace turns out to have an endpoint after all. */
export const SKIPPED_MEMORY_MS = 10_000;

/** At most this many skipped events are remembered (the oldest go first): a bound on the memory a burst can take. */
export const SKIPPED_MEMORY_MAX = 20_000;

/** What the fan-out asks before it spends a query on an event. */
export interface EndpointPresence {
  /** False only when the workspace surely has no enabled endpoint as far as this process knows (a lookup in memory). */
  mayHaveEndpoints(workspaceId: string): boolean;
}

/** Every workspace may have endpoints: the fan-out asks the database for each event (replays, tests of the fan-out alone). */
export const ASK_EVERY_TIME: EndpointPresence = { mayHaveEndpoints: () => true };

/**
 * Which workspaces have an enabled webhook endpoint, in memory, so the fan-out
 * skips the events of a workspace without one (most of them) at the cost of a
 * Set lookup instead of a query per event. Loaded once, then kept current by the
 * store's NOTIFY on every create and update (sent when the write commits, to
 * every replica), and by noteEndpoint for writes made in this process. A
 * workspace is never removed while the process runs (a deleted endpoint's
 * workspace is asked about, as before): a stale "may have" costs a query, never
 * an event. While the listening connection is down nothing is trusted and every
 * event is asked about; on reconnect the set is loaded again.
 *
 * A notification travels on its own connection, so it may reach this process a
 * moment after an event caused by the caller who created the endpoint. Such an
 * event is not lost: onAdded tells the fan-out, which takes again the events of
 * that workspace it skipped within SKIPPED_MEMORY_MS.
 */
export class WorkspacesWithEndpoints implements EndpointPresence {
  private readonly workspaces = new Set<string>();
  private listener: Client | null = null;
  private trusted = false;
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;
  private readonly added = new Set<(workspaceId: string) => void>();

  constructor(
    private readonly pool: Pool,
    private readonly databaseUrl: string,
    private readonly retryMs = 1_000,
  ) {}

  mayHaveEndpoints(workspaceId: string): boolean {
    return !this.trusted || this.workspaces.has(workspaceId);
  }

  /** Calls `listener` with each workspace that may have gained an endpoint, and with every workspace after a reload. */
  onAdded(listener: (workspaceId: string) => void): () => void {
    this.added.add(listener);
    return () => this.added.delete(listener);
  }

  /** An endpoint written by this process: known at once, without waiting for its notification. */
  noteEndpoint(workspaceId: string): void {
    this.add(workspaceId);
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.listen().catch(() => this.retryLater());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.trusted = false;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    const client = new Client({ connectionString: this.databaseUrl });
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      if (this.listener === client) this.listener = null;
      this.trusted = false;
      client.end().catch(() => undefined);
      this.retryLater();
    };
    client.on('error', onLost);
    client.on('end', onLost);
    client.on('notification', (message) => {
      if (message.channel === ENDPOINTS_CHANGED_CHANNEL && message.payload) this.add(message.payload);
    });
    await client.connect();
    await client.query(`LISTEN ${ENDPOINTS_CHANGED_CHANNEL}`);
    // Listening first, then the load: an endpoint written in between is in the load, or announced after it (adds commute).
    const { rows } = await this.pool.query<{ workspace_id: string }>('SELECT DISTINCT workspace_id::text AS workspace_id FROM webhook_endpoints WHERE enabled');
    if (this.stopped || lost) {
      await client.end().catch(() => undefined);
      return;
    }
    this.listener = client;
    // Notifications may have been missed while not listening: every workspace loaded counts as added.
    for (const { workspace_id } of rows) this.add(workspace_id, true);
    this.trusted = true;
  }

  private add(workspaceId: string, reloaded = false): void {
    const known = this.workspaces.has(workspaceId);
    this.workspaces.add(workspaceId);
    if (!known || reloaded) for (const listener of this.added) listener(workspaceId);
  }

  private retryLater(): void {
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.listen().catch(() => this.retryLater());
    }, this.retryMs);
  }
}

import { Client, Pool, PoolClient } from 'pg';
import { comparePositions, parsePosition } from '@app/contracts';

/**
 * Channel the projector notifies after each committed batch: payload "<projection> <commit:prepare>",
 * then " views=<id>,<id>…" when the batch names the views (rows by id) whose status it may have
 * changed (ReadModel.viewsWhoseStatusMayChange). A notification without the list may have changed any view.
 */
export const PROJECTION_CHANNEL = 'projection_advanced';

/** Most view ids one notification lists (NOTIFY payloads stop at 8,000 bytes): a batch that changed more sends none. */
const MAX_LISTED_VIEWS = 150;
const VIEWS_FIELD = 'views=';

/** Tells ProjectionWaiters (in any process) that `projection` reached `position`; delivered when the caller's transaction commits. */
export async function notifyProjectionAdvanced(client: PoolClient, projection: string, position: string): Promise<void> {
  const { channel, payload } = notifyProjectionAdvancedWith(projection, position);
  await client.query('SELECT pg_notify($1, $2)', [channel, payload]);
}

/**
 * The notification notifyProjectionAdvanced sends, for a statement that sends it itself (CheckpointStore.save's `notify`).
 * `views`: the ids of the views the batch may have changed, so that a waiter on another view is not woken for it.
 */
export function notifyProjectionAdvancedWith(projection: string, position: string, views?: ReadonlySet<string>): { channel: string; payload: string } {
  const listed = views && views.size <= MAX_LISTED_VIEWS ? ` ${VIEWS_FIELD}${[...views].join(',')}` : '';
  return { channel: PROJECTION_CHANNEL, payload: `${projection} ${position}${listed}` };
}

/** The views a notification lists; null when it lists none (any view may have changed). */
function viewsOf(field: string | undefined): Set<string> | null {
  return field?.startsWith(VIEWS_FIELD) ? new Set(field.slice(VIEWS_FIELD.length).split(',').filter((id) => id.length > 0)) : null;
}

/** What waitUntil re-checks for: one view's status (`viewId`), and whether the caller has just checked (`checkedAt`, from mark()). */
export interface WaitUntilOptions {
  viewId?: string;
  checkedAt?: number;
}

interface Watcher {
  viewId: string | undefined;
  wake: () => void;
}

function isAtOrPast(checkpoint: string, position: string): boolean {
  return comparePositions(parsePosition(checkpoint), parsePosition(position)) >= 0;
}

/**
 * Read-your-writes for the HTTP API: waits until a projection's checkpoint has
 * passed a write's position. Woken by the position the projector's NOTIFY
 * carries, never polled while the listening connection is up (a notification
 * on a live connection is not lost: it is sent when the checkpoint commits).
 * Only while that connection is down does a poll of the checkpoint keep the
 * waiters moving.
 */
export class ProjectionWaiter {
  private listener: Client | null = null;
  private readonly waiters = new Set<{ position: string; resolve: (done: boolean) => void }>();
  private readonly watchers = new Set<Watcher>();
  private latest: string | null = null;
  /** Advances heard so far (mark()). */
  private advances = 0;
  private poller: NodeJS.Timeout | null = null;

  constructor(
    private readonly pool: Pool,
    private readonly databaseUrl: string,
    private readonly projection: string,
    private readonly pollIntervalMs = 100,
  ) {}

  async start(): Promise<void> {
    const client = new Client({ connectionString: this.databaseUrl });
    client.on('error', () => {
      this.listener = null; // the poll keeps waiters moving; the next start() reconnects
      if (this.waiters.size > 0) this.pollWhileNotListening();
    });
    client.on('notification', (message) => {
      const [projection, position, views] = (message.payload ?? '').split(' ');
      if (projection === this.projection && position) this.advance(position, viewsOf(views));
    });
    await client.connect();
    await client.query(`LISTEN ${PROJECTION_CHANNEL}`);
    this.listener = client;
    await this.poll();
  }

  async stop(): Promise<void> {
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
    for (const waiter of [...this.waiters]) waiter.resolve(false);
    this.waiters.clear();
    this.watchers.clear();
    await this.listener?.end().catch(() => undefined);
    this.listener = null;
  }

  /** Resolves true once the projection has passed `position`, false if `timeoutMs` passes first. */
  async waitFor(position: string, timeoutMs: number): Promise<boolean> {
    if (this.latest && isAtOrPast(this.latest, position)) return true;
    return new Promise((resolve) => {
      const waiter = {
        position,
        resolve: (done: boolean) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          if (this.waiters.size === 0 && this.poller) {
            clearInterval(this.poller);
            this.poller = null;
          }
          resolve(done);
        },
      };
      const timer = setTimeout(() => waiter.resolve(false), timeoutMs);
      this.waiters.add(waiter);
      if (!this.listener) this.pollWhileNotListening();
    });
  }

  private pollWhileNotListening(): void {
    this.poller ??= setInterval(() => void this.poll().catch(() => undefined), this.pollIntervalMs);
  }

  /**
   * Resolves true once `check` holds, re-checking each time the projection advances (with
   * `viewId`, each time it may have changed that view's status); false if `timeoutMs` passes first. Checks
   * at once unless the caller has just checked and nothing advanced since (`checkedAt`).
   */
  async waitUntil(check: () => Promise<boolean>, timeoutMs: number, { viewId, checkedAt }: WaitUntilOptions = {}): Promise<boolean> {
    return new Promise((resolve) => {
      let checking = false;
      // An advance while a check runs may be the one that makes it hold: check once more after it, never drop it.
      let advancedMeanwhile = false;
      let finished = false;
      const finish = (done: boolean) => {
        finished = true;
        clearTimeout(timer);
        clearInterval(fallback);
        this.watchers.delete(watcher);
        resolve(done);
      };
      const watcher: Watcher = {
        viewId,
        wake: () => {
          if (finished) return;
          if (checking) {
            advancedMeanwhile = true;
            return;
          }
          checking = true;
          advancedMeanwhile = false;
          check()
            .then((done) => done && finish(true))
            .catch(() => undefined)
            .finally(() => {
              checking = false;
              if (advancedMeanwhile) watcher.wake();
            });
        },
      };
      const timer = setTimeout(() => finish(false), timeoutMs);
      // Without a listening connection no advance is heard: a slow re-check keeps the wait honest.
      const fallback = setInterval(() => this.listener || watcher.wake(), this.pollIntervalMs * 5);
      // Watching before the first check: an advance during it is not lost.
      this.watchers.add(watcher);
      if (checkedAt === undefined || checkedAt !== this.advances) watcher.wake();
    });
  }

  /** A mark to pass as waitUntil's `checkedAt` when the caller checks just after taking it. */
  mark(): number {
    return this.advances;
  }

  private async poll(): Promise<void> {
    const { rows } = await this.pool.query<{ position: string }>('SELECT position FROM checkpoints WHERE name = $1', [this.projection]);
    if (rows[0]) this.advance(rows[0].position, null);
  }

  /** `views`: the views the advance may have changed; null: any. */
  private advance(position: string, views: ReadonlySet<string> | null): void {
    if (this.latest && isAtOrPast(this.latest, position)) return;
    this.latest = position;
    this.advances += 1;
    for (const waiter of [...this.waiters]) if (isAtOrPast(position, waiter.position)) waiter.resolve(true);
    for (const watcher of [...this.watchers]) if (!views || !watcher.viewId || views.has(watcher.viewId)) watcher.wake();
  }
}

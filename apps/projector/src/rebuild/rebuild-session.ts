import { Client } from 'pg';

/** The application_name of every rebuild session: a rebuild never ends another's session to take the live leadership. */
const REBUILD_SESSION = 'rebuild-projections';

/**
 * The rebuild's own connection and the session advisory locks it holds: one
 * that keeps a second rebuild of its model out, and — for the switch — the
 * live follower's leadership lock (FeedProcessor's `feed:<name>`). Ending the
 * session releases both.
 */
export class RebuildSession {
  private constructor(private readonly client: Client) {}

  /** Opens the session, refusing when another rebuild of the same projection runs. */
  static async open(databaseUrl: string, projection: string): Promise<RebuildSession> {
    const client = new Client({ connectionString: databaseUrl, application_name: REBUILD_SESSION });
    client.on('error', () => undefined); // a lost session surfaces as the next query's error
    await client.connect();
    const session = new RebuildSession(client);
    if (!(await session.tryLock(`rebuild:${projection}`))) {
      await session.close();
      throw new Error(`a rebuild of ${projection} is already running`);
    }
    return session;
  }

  /**
   * Takes the live projection's leadership. Its leader holds the lock for as
   * long as it runs, so the leader's lock session is ended: the FeedProcessor
   * stops its subscription, retries leadership, and resumes from its
   * checkpoint once this session releases the lock. Answers how many leader
   * sessions it ended. The live follower keeps every read model, so runs that
   * rebuild different models contend for the same lock: one held by another
   * rebuild is waited for, never ended (its switch must not meet a live leader).
   */
  async takeLeadership(follower: string, retryDelayMs = 50): Promise<number> {
    const lock = `feed:${follower}`;
    // Counted by pid: a leader still exiting holds the lock for another round, and is the same leader.
    const ended = new Set<number>();
    while (!(await this.tryLock(lock))) {
      const { rows } = await this.client.query<{ pid: number }>(
        // The timeout makes the call wait for the backend to exit, so its lock is released before the next try.
        `SELECT pid, pg_terminate_backend(pid, 5000) FROM pg_locks
         WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid()
           AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
           AND ((classid::bigint << 32) | objid::bigint) = hashtext($1)::bigint
           AND pid NOT IN (SELECT pid FROM pg_stat_activity WHERE application_name = $2)`,
        [lock, REBUILD_SESSION],
      );
      for (const { pid } of rows) ended.add(pid);
      if (rows.length === 0) await new Promise((resolve) => setTimeout(resolve, retryDelayMs));
    }
    return ended.size;
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }

  private async tryLock(name: string): Promise<boolean> {
    const { rows } = await this.client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [name]);
    return rows[0].locked;
  }
}

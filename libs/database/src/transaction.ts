import { Pool, PoolClient } from 'pg';

/** Runs `work` in one transaction on a pooled client: committed if it resolves, rolled back if it throws. */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Like inTransaction, but the transaction begins with `work`'s first statement:
 * work that sends none costs no BEGIN and no COMMIT. `finish` runs last, inside
 * the transaction when one began (so it commits with the work), else on its own
 * as a single statement (which is a transaction by itself). For a feed
 * follower whose batch mostly holds nothing for it: its checkpoint then moves
 * in one statement instead of four.
 */
export async function inTransactionIfNeeded<T>(pool: Pool, work: (client: PoolClient) => Promise<T>, finish: (client: PoolClient) => Promise<void>): Promise<T> {
  const client = await pool.connect();
  let begun = false;
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
  // The work's view of the client: its first statement opens the transaction.
  const lazy = Object.create(client) as PoolClient;
  (lazy as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = async (...args: unknown[]) => {
    if (!begun) {
      begun = true;
      await query('BEGIN');
    }
    return query(...args);
  };
  try {
    const result = await work(lazy);
    await finish(client);
    if (begun) await query('COMMIT');
    return result;
  } catch (error) {
    if (begun) await query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

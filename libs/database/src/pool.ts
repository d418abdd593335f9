import { Pool } from 'pg';

export function createPool(databaseUrl: string, max = 10): Pool {
  const pool = new Pool({ connectionString: databaseUrl, max });
  // An idle client's error (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  // A checked-out client has no listener of the pool's (pg-pool removes it at checkout): a server
  // stop while a transaction waits between two queries (57P01 admin_shutdown, a reset) would be an
  // unhandled 'error' event and end the process. The failure still reaches the holder through its
  // next query, and pg-pool discards the broken client when it is released.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

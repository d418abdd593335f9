import { randomBytes } from 'node:crypto';
import { Client, Pool } from 'pg';
import { createPool, migrate } from '@app/database';

/** The machine's PostgreSQL (DESIGN: 127.0.0.1:5432, trust auth); TEST_DATABASE_URL overrides. */
export const TEST_SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  pool: Pool;
  /** Drops the database (after closing the pool and any other connection to it). */
  drop(): Promise<void>;
}

function urlFor(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * The connections a test file's own pool may open. The server takes 100 connections
 * (max_connections), shared by the two test files jest runs at once and everything else on the
 * machine: enough for the int-specs that race a row from many connections (40 draws, 30 checks),
 * a fifth of the server.
 */
export const TEST_POOL_SIZE = 10;

/**
 * A fresh, migrated database of its own for one test file, on the real server,
 * or on `serverUrl` (a private server an outage test stops and starts).
 * `poolSize`: the connections its pool may open (a whole test stack needs few of its own).
 */
export async function createTestDatabase(serverUrl = TEST_SERVER_URL, poolSize = TEST_POOL_SIZE): Promise<TestDatabase> {
  const name = `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withServer(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = urlFor(serverUrl, name);
  await migrate(url);
  const pool = createPool(url, poolSize);
  return {
    url,
    pool,
    async drop() {
      await pool.end();
      await withServer(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

async function withServer<T>(serverUrl: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A NATS namespace of its own for one test file (see Subjects). */
export function testNamespace(): string {
  return `t${randomBytes(5).toString('hex')}`;
}

export const TEST_NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

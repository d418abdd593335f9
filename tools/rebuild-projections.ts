import { createPool, migrate } from '@app/database';
import { rebuildProjections } from '../apps/projector/src/rebuild/rebuild-projections';
import { localDatabase } from './local/local-environment';

/**
 * `npm run rebuild-projections`: rebuilds post_views and comment_views from the
 * event store while the service keeps running (see rebuild-projections.ts),
 * against the database `npm start` uses, or DATABASE_URL.
 */
const log = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<void> {
  const database = await localDatabase(log);
  const pool = createPool(database.databaseUrl, 4);
  try {
    await migrate(database.databaseUrl);
    const report = await rebuildProjections({ pool, databaseUrl: database.databaseUrl, log });
    process.stdout.write(`${JSON.stringify(report)}\n`);
  } finally {
    await pool.end();
    await database.stop();
  }
}

main().catch((error: unknown) => {
  log(`rebuild failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});

import { createPool } from '@app/database';
import { describeReport, isHealthy, verifyProjections } from '../apps/projector/src/verify/verify-projections';
import { localDatabase } from './local/local-environment';

/**
 * `npm run verify-projections`: compares every row of post_views and comment_views with a fresh
 * fold of its stream (see verify-projections.ts), against the database `npm start` uses, or
 * DATABASE_URL. Prints a summary; exits 1 when a row differs, is missing, or has no stream.
 */
const log = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<void> {
  const database = await localDatabase(log);
  const pool = createPool(database.databaseUrl, 2);
  try {
    const report = await verifyProjections({ pool, databaseUrl: database.databaseUrl });
    process.stdout.write(`${describeReport(report).join('\n')}\n`);
    if (!isHealthy(report)) process.exitCode = 1;
  } finally {
    await pool.end();
    await database.stop();
  }
}

main().catch((error: unknown) => {
  log(`verify failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
});

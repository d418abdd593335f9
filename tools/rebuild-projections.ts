import { Command } from 'commander';
import { createPool, migrate } from '@app/database';
import { rebuildProjections } from '../apps/projector/src/rebuild/rebuild-projections';
import { localDatabase } from './local/local-environment';

/**
 * `npm run rebuild-projections [-- --only <read model>]`: rebuilds the read
 * models (post_views and comment_views; with --only, repeatable, just those)
 * from the event store while the service keeps running (see
 * rebuild-projections.ts), against the database `npm start` uses, or DATABASE_URL.
 */
const log = (line: string) => process.stderr.write(`${line}\n`);

/** The read models named by `--only <name>` (repeatable); undefined: all of them. */
function onlyReadModels(argv: string[]): string[] | undefined {
  const options = new Command()
    .option('--only <read model>', 'rebuild only this read model (repeatable)', (name: string, names: string[]) => [...names, name], [])
    .parse(argv, { from: 'user' })
    .opts<{ only: string[] }>();
  return options.only.length > 0 ? options.only : undefined;
}

async function main(): Promise<void> {
  const database = await localDatabase(log);
  const pool = createPool(database.databaseUrl, 4);
  try {
    await migrate(database.databaseUrl);
    const reports = await rebuildProjections({ pool, databaseUrl: database.databaseUrl, log, only: onlyReadModels(process.argv.slice(2)) });
    for (const report of reports) process.stdout.write(`${JSON.stringify(report)}\n`);
  } finally {
    await pool.end();
    await database.stop();
  }
}

main().catch((error: unknown) => {
  log(`rebuild failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});

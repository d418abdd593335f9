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

/** The read models named by `--only <name>` (or `--only=<name>`), each flag once per name; undefined: all of them. */
function onlyReadModels(argv: string[]): string[] | undefined {
  const names: string[] = [];
  argv.forEach((arg, i) => {
    if (arg === '--only') {
      if (!argv[i + 1] || argv[i + 1].startsWith('--')) throw new Error('--only needs a read model name');
      names.push(argv[i + 1]);
    } else if (arg.startsWith('--only=')) names.push(arg.slice('--only='.length));
  });
  return names.length > 0 ? names : undefined;
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

import { migrate } from '@app/database';

/** One-shot schema migration (the Kubernetes migration Job, the compose service). */
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  process.stderr.write('DATABASE_URL is required\n');
  process.exit(1);
}
migrate(databaseUrl).then(
  () => process.stdout.write('migrations applied\n'),
  (error: unknown) => {
    process.stderr.write(`migration failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runner } from 'node-pg-migrate';

/** The SQL migrations live in libs/database/migrations, found from here in src/ and in dist/ alike. */
export function migrationsDir(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'libs', 'database', 'migrations');
    if (existsSync(candidate)) return candidate;
    const beside = join(dir, 'migrations');
    if (existsSync(beside) && existsSync(join(dir, 'src', 'migrate.ts'))) return beside;
  }
  throw new Error(`libs/database/migrations not found above ${__dirname}`);
}

/** Brings the schema up to date; safe to run from several processes at once (node-pg-migrate takes a lock). */
export async function migrate(databaseUrl: string): Promise<void> {
  await runner({
    databaseUrl,
    dir: migrationsDir(),
    direction: 'up',
    migrationsTable: 'pgmigrations',
    count: Infinity,
    log: () => undefined,
    verbose: false,
  });
}

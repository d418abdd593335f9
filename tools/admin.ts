import 'reflect-metadata';
import { runAdmin } from './admin/admin-program';
import { openLocalStore } from './admin/local-store';

/**
 * `npm run admin -- <command>`: the admin command line (tools/admin/admin-program.ts)
 * against the database `npm start` uses (or DATABASE_URL).
 */
const log = (line: string) => process.stderr.write(`${line}\n`);

runAdmin(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, openStore: () => openLocalStore(log) }).then((code) => {
  process.exitCode = code;
});

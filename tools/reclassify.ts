import { Command } from 'commander';
import { classifierVersion } from '@app/classification';
import { AppConfig } from '@app/config';
import { createPool } from '@app/database';
import { PostgresEventStore } from '@app/event-store';
import { CommentCommandRunner } from '../apps/comments/src/domain/comment-command-runner';
import { CommentReclassification } from '../apps/comments/src/reclassify/comment-reclassification';
import { localDatabase } from './local/local-environment';

/**
 * `npm run reclassify [-- --after <commentId>]`: re-applies the current classifier to every stored
 * comment through events (CommentReclassified where the reading changed; see
 * comment-reclassification.ts), against the database `npm start` uses, or DATABASE_URL. The service
 * may keep running: the relay puts the new events on NATS and the projector updates the list.
 * Prints a line per batch and the totals; an interrupted run resumes with --after and the last id printed.
 */
const log = (line: string) => process.stderr.write(`${line}\n`);

function resumeAfter(argv: string[]): string | undefined {
  return new Command().option('--after <commentId>', 'resume after this comment id').parse(argv, { from: 'user' }).opts<{ after?: string }>().after;
}

async function main(): Promise<void> {
  const after = resumeAfter(process.argv.slice(2));
  const database = await localDatabase(log);
  const pool = createPool(database.databaseUrl, 10);
  const store = new PostgresEventStore(pool, { databaseUrl: database.databaseUrl });
  try {
    const version = classifierVersion();
    log(`classifier ${version}${after ? `, resuming after ${after}` : ''}`);
    const reclassification = new CommentReclassification(pool, new CommentCommandRunner(store, new AppConfig()));
    const report = await reclassification.run({
      classifierVersion: version,
      after,
      onProgress: (progress) => log(`${progress.scanned} comments read, ${progress.reclassified} reclassified, last ${progress.lastCommentId}`),
    });
    process.stdout.write(`${JSON.stringify({ classifierVersion: version, ...report })}\n`);
  } finally {
    await store.close();
    await pool.end();
    await database.stop();
  }
}

main().catch((error: unknown) => {
  log(`reclassify failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});

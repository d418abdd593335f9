import { Pool } from 'pg';
import { classifyComment } from '@app/classification';
import { CommentCommandRunner } from '../domain/comment-command-runner';

/** What one run did (and where a later run may resume). */
export interface ReclassificationReport {
  /** Comments read. */
  scanned: number;
  /** Comments whose reading changed: one CommentReclassified each. */
  reclassified: number;
  /** Comments the current classifier reads as stored: nothing appended. */
  unchanged: number;
  /** The last comment handled, in id order: `after` for a run that resumes. */
  lastCommentId: string | null;
}

export interface ReclassificationOptions {
  classifierVersion: string;
  /** Resume after this comment id (a previous report's lastCommentId). */
  after?: string;
  /** Comments read per query. */
  batchSize?: number;
  /** Comments decided at once (each is a stream read and maybe an append). */
  concurrency?: number;
  /** Called after each batch with the totals so far. */
  onProgress?: (report: ReclassificationReport) => void;
}

/** Below every UUID: a run from the start. */
const FIRST_ID = '00000000-0000-0000-0000-000000000000';

/**
 * Re-applies the current classifier to stored comments through events: each
 * comment's reading goes through the comment decider (ReclassifyComment),
 * which appends CommentReclassified only when it differs from the stored one;
 * the earlier events stay as they were. Running it again appends nothing.
 *
 * The comments are walked in id order from comment_views (one row per stored
 * comment; its text never changes), so a run interrupted anywhere resumes
 * after the last id it reported, and one started over only repeats reads.
 */
export class CommentReclassification {
  constructor(
    private readonly pool: Pool,
    private readonly runner: CommentCommandRunner,
  ) {}

  async run(options: ReclassificationOptions): Promise<ReclassificationReport> {
    const { batchSize = 500, concurrency = 8 } = options;
    const report: ReclassificationReport = { scanned: 0, reclassified: 0, unchanged: 0, lastCommentId: options.after ?? null };
    for (;;) {
      const { rows } = await this.pool.query<{ id: string; workspace_id: string; text: string }>(
        'SELECT id, workspace_id, text FROM comment_views WHERE id > $1 ORDER BY id LIMIT $2',
        [report.lastCommentId ?? FIRST_ID, batchSize],
      );
      if (rows.length === 0) return report;
      for (let i = 0; i < rows.length; i += concurrency) {
        const changed = await Promise.all(rows.slice(i, i + concurrency).map((row) => this.reclassify(row.id, row.workspace_id, row.text, options.classifierVersion)));
        for (const appended of changed) appended ? report.reclassified++ : report.unchanged++;
      }
      report.scanned += rows.length;
      report.lastCommentId = rows[rows.length - 1].id;
      options.onProgress?.({ ...report });
    }
  }

  /** True when the comment's reading changed (CommentReclassified appended). */
  private async reclassify(commentId: string, workspaceId: string, text: string, classifierVersion: string): Promise<boolean> {
    const { sentiment, tags } = classifyComment(text);
    const { events } = await this.runner.run(commentId, workspaceId, (now) => ({ type: 'ReclassifyComment', classification: { sentiment, tags }, classifierVersion, now }), undefined);
    return events.length > 0;
  }
}

import { execFileSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { loadavg, cpus } from 'node:os';

/** The commit the figures were measured on, when the bench runs in a git checkout. */
function commit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

/**
 * A bench's figures as one JSON line (on stdout, and appended to the file
 * BENCH_JSON names), so two commits' runs can be compared line by line. The
 * machine's cores and load average go with them: on a shared machine they
 * explain most of the difference between two runs.
 */
export function reportFigures(bench: string, figures: Record<string, unknown>): void {
  const line = JSON.stringify({ bench, at: new Date().toISOString(), commit: commit(), cores: cpus().length, loadAverage: loadavg()[0], figures });
  process.stdout.write(`${line}\n`);
  if (process.env.BENCH_JSON) appendFileSync(process.env.BENCH_JSON, `${line}\n`);
}

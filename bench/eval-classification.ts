import { evaluatePublicSets, measureThroughput, SetEvaluation } from '../libs/classification/eval/public-evaluation';

/**
 * npm run eval:classification: the comment classifier on public labelled data (libs/classification/eval),
 * each set by its own measure, next to plain VADER; the held-out test split first, the dev split the
 * rules were tuned on after it; then comments per second on one core. SemEval-2017 Task 4A tweets
 * may not be redistributed: point SEMEVAL_2017_4A at a copy to include it.
 */
const figure = (value: number | undefined): string => (value === undefined ? '—' : value.toFixed(3));

function table({ name, split, size, rows }: SetEvaluation): string {
  return [
    `${name}, ${split} split, ${size} examples`,
    '| measure | ours | plain VADER |',
    '|---|---|---|',
    ...rows.map((row) => `| ${row.measure} | ${figure(row.ours)} | ${figure(row.plainVader)} |`),
  ].join('\n');
}

function main(): void {
  const semEvalPath = process.env.SEMEVAL_2017_4A;
  for (const split of ['test', 'dev'] as const) {
    for (const evaluation of evaluatePublicSets({ split, semEvalPath })) console.log(`${table(evaluation)}\n`);
  }
  if (semEvalPath === undefined) console.log('SemEval-2017 Task 4A skipped: set SEMEVAL_2017_4A to a subtask A file (id, label, text).\n');
  const throughput = measureThroughput();
  console.log(
    `throughput, one core, ${throughput.comments} comments: ours ${Math.round(throughput.oursPerSecond)}/s, plain VADER ${Math.round(throughput.plainVaderPerSecond)}/s`,
  );
}

main();

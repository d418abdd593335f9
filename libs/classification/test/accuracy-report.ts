import { CommentClassification, CommentTag, COMMENT_TAGS, Sentiment } from '../src';
import { LabelledComment } from './labelled-comments';

const SENTIMENTS: readonly Sentiment[] = ['positive', 'negative', 'neutral'];

/** Tags the fixtures were labelled with; `urgent` came later, its examples are pinned in classify.spec.ts. */
export type LabelledTag = Exclude<CommentTag, 'urgent'>;
export const LABELLED_TAGS = COMMENT_TAGS.filter((tag): tag is LabelledTag => tag !== 'urgent');

export interface LabelScores {
  precision: number;
  recall: number;
  f1: number;
  /** How many comments carry the label in the fixtures. */
  support: number;
}

export interface AccuracyReport {
  comments: number;
  sentimentAccuracy: number;
  sentiment: Record<Sentiment, LabelScores>;
  tags: Record<LabelledTag, LabelScores>;
}

/** Precision and recall are 1 when nothing was predicted or expected: no claim, no miss. */
function scores(truePositives: number, predicted: number, expected: number): LabelScores {
  const precision = predicted === 0 ? 1 : truePositives / predicted;
  const recall = expected === 0 ? 1 : truePositives / expected;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1, support: expected };
}

function scoresFor(pairs: ReadonlyArray<[boolean, boolean]>): LabelScores {
  const truePositives = pairs.filter(([expected, predicted]) => expected && predicted).length;
  const predicted = pairs.filter(([, isPredicted]) => isPredicted).length;
  const expected = pairs.filter(([isExpected]) => isExpected).length;
  return scores(truePositives, predicted, expected);
}

export function measureAccuracy(
  comments: readonly LabelledComment[],
  classify: (text: string) => CommentClassification,
): AccuracyReport {
  const results = comments.map((comment) => ({ comment, got: classify(comment.text) }));
  const correct = results.filter(({ comment, got }) => comment.sentiment === got.sentiment).length;
  const sentiment = Object.fromEntries(
    SENTIMENTS.map((label) => [
      label,
      scoresFor(results.map(({ comment, got }): [boolean, boolean] => [comment.sentiment === label, got.sentiment === label])),
    ]),
  ) as Record<Sentiment, LabelScores>;
  const tags = Object.fromEntries(
    LABELLED_TAGS.map((tag) => [
      tag,
      scoresFor(results.map(({ comment, got }): [boolean, boolean] => [comment.tags.includes(tag), got.tags.includes(tag)])),
    ]),
  ) as Record<LabelledTag, LabelScores>;
  return { comments: comments.length, sentimentAccuracy: correct / comments.length, sentiment, tags };
}

const percent = (value: number): string => `${(value * 100).toFixed(1)}%`.padStart(7);

/** A plain-text table, the same shape as the one in libs/classification/README.md. */
export function formatAccuracyReport(title: string, report: AccuracyReport): string {
  const row = (label: string, s: LabelScores): string =>
    `| ${label.padEnd(20)} | ${percent(s.precision)} | ${percent(s.recall)} | ${percent(s.f1)} | ${String(s.support).padStart(7)} |`;
  return [
    `${title}: ${report.comments} comments, sentiment accuracy ${percent(report.sentimentAccuracy).trim()}`,
    `| label                | precision | recall |     F1 | support |`,
    `|----------------------|-----------|--------|--------|---------|`,
    ...SENTIMENTS.map((label) => row(`sentiment ${label}`, report.sentiment[label])),
    ...LABELLED_TAGS.map((tag) => row(`tag ${tag}`, report.tags[tag])),
  ].join('\n');
}

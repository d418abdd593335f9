import { Sentiment } from '../src';

export const SENTIMENTS: readonly Sentiment[] = ['positive', 'negative', 'neutral'];

export interface ClassScores {
  precision: number;
  recall: number;
  f1: number;
  support: number;
}

export interface SentimentScores {
  size: number;
  accuracy: number;
  /** SemEval-2017 Task 4A's official measure: recall averaged over the three classes. */
  macroRecall: number;
  perClass: Record<Sentiment, ClassScores>;
}

/** Precision is 1 when nothing was predicted (no claim made), recall 1 when nothing was expected. */
export function classScores(truePositives: number, predicted: number, expected: number): ClassScores {
  const precision = predicted === 0 ? 1 : truePositives / predicted;
  const recall = expected === 0 ? 1 : truePositives / expected;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1, support: expected };
}

export function scoreSentiment(gold: readonly Sentiment[], predicted: readonly Sentiment[]): SentimentScores {
  const perClass = Object.fromEntries(
    SENTIMENTS.map((label) => {
      const truePositives = gold.filter((expected, index) => expected === label && predicted[index] === label).length;
      const predictedCount = predicted.filter((value) => value === label).length;
      const expectedCount = gold.filter((value) => value === label).length;
      return [label, classScores(truePositives, predictedCount, expectedCount)];
    }),
  ) as Record<Sentiment, ClassScores>;
  const correct = gold.filter((expected, index) => expected === predicted[index]).length;
  const macroRecall = SENTIMENTS.reduce((sum, label) => sum + perClass[label].recall, 0) / SENTIMENTS.length;
  return { size: gold.length, accuracy: gold.length === 0 ? 0 : correct / gold.length, macroRecall, perClass };
}

export function scoreBinary(gold: readonly boolean[], predicted: readonly boolean[]): ClassScores {
  const truePositives = gold.filter((expected, index) => expected && predicted[index]).length;
  return classScores(truePositives, predicted.filter(Boolean).length, gold.filter(Boolean).length);
}

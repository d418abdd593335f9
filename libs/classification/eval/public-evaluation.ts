import { performance } from 'node:perf_hooks';
import { classifyComment, Sentiment } from '../src';
import {
  DevTestSplit,
  loadSemEvalSubtaskA,
  loadVaderTweets,
  loadYoutubeSpam,
  RatedTweet,
  SentimentExample,
  sentimentBySign,
  sentimentOfMeanRating,
  splitDevTest,
} from './labelled-sets';
import { ClassScores, scoreBinary, scoreSentiment } from './measures';
import { plainVaderSentiment } from './plain-vader';

export type SplitName = keyof DevTestSplit<unknown>;

/** One line of a set's table: a figure for us and, where it exists, for plain VADER. */
export interface EvaluationRow {
  measure: string;
  ours: number;
  plainVader?: number;
}

export interface SetEvaluation {
  name: string;
  split: SplitName;
  size: number;
  rows: EvaluationRow[];
}

const oursSentiment = (text: string): Sentiment => classifyComment(text).sentiment;

/** SemEval's own measure, macro-averaged recall, with accuracy and per-class F1 beside it. */
function evaluateSemEval(split: SplitName, examples: readonly SentimentExample[]): SetEvaluation {
  const gold = examples.map((example) => example.sentiment);
  const ours = scoreSentiment(gold, examples.map((example) => oursSentiment(example.text)));
  const vader = scoreSentiment(gold, examples.map((example) => plainVaderSentiment(example.text)));
  return {
    name: 'SemEval-2017 Task 4A',
    split,
    size: examples.length,
    rows: [
      { measure: 'macro-averaged recall', ours: ours.macroRecall, plainVader: vader.macroRecall },
      { measure: 'accuracy', ours: ours.accuracy, plainVader: vader.accuracy },
      ...(['neutral', 'positive', 'negative'] as const).map((label) => ({ measure: `${label} F1`, ours: ours.perClass[label].f1, plainVader: vader.perClass[label].f1 })),
    ],
  };
}

/**
 * Accuracy against the sign of the raters' mean (the scoring that reproduces the issue's figure for
 * plain VADER), and neutral F1 against the ±0.5 band: the sign classes have almost no neutral tweet.
 */
function evaluateVaderTweets(split: SplitName, tweets: readonly RatedTweet[]): SetEvaluation {
  const ours = tweets.map((tweet) => oursSentiment(tweet.text));
  const vader = tweets.map((tweet) => plainVaderSentiment(tweet.text));
  const bySign = tweets.map((tweet) => sentimentBySign(tweet.meanRating));
  const byBand = tweets.map((tweet) => sentimentOfMeanRating(tweet.meanRating));
  const sign = { ours: scoreSentiment(bySign, ours), vader: scoreSentiment(bySign, vader) };
  const band = { ours: scoreSentiment(byBand, ours), vader: scoreSentiment(byBand, vader) };
  return {
    name: 'VADER tweets (20 raters each)',
    split,
    size: tweets.length,
    rows: [
      { measure: 'accuracy', ours: sign.ours.accuracy, plainVader: sign.vader.accuracy },
      { measure: 'neutral F1', ours: band.ours.perClass.neutral.f1, plainVader: band.vader.perClass.neutral.f1 },
      { measure: 'accuracy, neutral band ±0.5', ours: band.ours.accuracy, plainVader: band.vader.accuracy },
      { measure: 'positive F1', ours: sign.ours.perClass.positive.f1, plainVader: sign.vader.perClass.positive.f1 },
      { measure: 'negative F1', ours: sign.ours.perClass.negative.f1, plainVader: sign.vader.perClass.negative.f1 },
    ],
  };
}

function spamRows(scores: ClassScores): EvaluationRow[] {
  return [
    { measure: 'spam precision', ours: scores.precision },
    { measure: 'spam recall', ours: scores.recall },
    { measure: 'spam F1', ours: scores.f1 },
  ];
}

export interface PublicEvaluationOptions {
  split: SplitName;
  /** A SemEval-2017 Task 4A file; its tweets may not be redistributed, so none ships with the repo. */
  semEvalPath?: string;
}

/** Every public set, scored by its own measure on one split. */
export function evaluatePublicSets({ split, semEvalPath }: PublicEvaluationOptions): SetEvaluation[] {
  const tweets = splitDevTest(loadVaderTweets())[split];
  const youtube = splitDevTest(loadYoutubeSpam())[split];
  const evaluations = [
    evaluateVaderTweets(split, tweets),
    {
      name: 'UCI YouTube Spam Collection',
      split,
      size: youtube.length,
      rows: spamRows(scoreBinary(youtube.map((example) => example.spam), youtube.map((example) => classifyComment(example.text).tags.includes('spam')))),
    },
  ];
  if (semEvalPath !== undefined) {
    evaluations.splice(1, 0, evaluateSemEval(split, splitDevTest(loadSemEvalSubtaskA(semEvalPath))[split]));
  }
  return evaluations;
}

export interface Throughput {
  comments: number;
  oursPerSecond: number;
  plainVaderPerSecond: number;
}

function perSecond(texts: readonly string[], rounds: number, classify: (text: string) => unknown): number {
  const started = performance.now();
  for (let round = 0; round < rounds; round += 1) for (const text of texts) classify(text);
  return (texts.length * rounds) / ((performance.now() - started) / 1000);
}

/** Other processes share the machine: the best of a few interleaved trials is the least disturbed one. */
const TRIALS = 3;

/** Comments classified per second on this thread (one core), over every public text. */
export function measureThroughput(rounds = 5): Throughput {
  const texts = [...loadVaderTweets(), ...loadYoutubeSpam()].map((example) => example.text);
  const trials = { ours: [] as number[], plainVader: [] as number[] };
  perSecond(texts, 1, classifyComment); // warm-up: regular expressions compiled, code optimised
  perSecond(texts, 1, plainVaderSentiment);
  for (let trial = 0; trial < TRIALS; trial += 1) {
    trials.ours.push(perSecond(texts, rounds, classifyComment));
    trials.plainVader.push(perSecond(texts, rounds, plainVaderSentiment));
  }
  return {
    comments: texts.length * rounds,
    oursPerSecond: Math.max(...trials.ours),
    plainVaderPerSecond: Math.max(...trials.plainVader),
  };
}

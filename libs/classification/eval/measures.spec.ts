import { Sentiment } from '../src';
import { scoreBinary, scoreSentiment } from './measures';

describe('measures', () => {
  it('computes accuracy, per-class F1 and macro-averaged recall as the data sets define them', () => {
    const gold: Sentiment[] = ['positive', 'positive', 'negative', 'neutral', 'neutral', 'neutral'];
    const predicted: Sentiment[] = ['positive', 'neutral', 'negative', 'neutral', 'positive', 'neutral'];
    const scores = scoreSentiment(gold, predicted);
    expect(scores.size).toBe(6);
    expect(scores.accuracy).toBeCloseTo(4 / 6);
    // recall: positive 1/2, negative 1/1, neutral 2/3
    expect(scores.macroRecall).toBeCloseTo((1 / 2 + 1 + 2 / 3) / 3);
    expect(scores.perClass.positive).toEqual({ precision: 0.5, recall: 0.5, f1: 0.5, support: 2 });
    expect(scores.perClass.neutral.precision).toBeCloseTo(2 / 3);
    expect(scores.perClass.neutral.f1).toBeCloseTo(2 / 3);
  });

  it('scores the spam tag by precision, recall and F1 of the spam class', () => {
    const scores = scoreBinary([true, true, true, false, false], [true, true, false, true, false]);
    expect(scores.precision).toBeCloseTo(2 / 3);
    expect(scores.recall).toBeCloseTo(2 / 3);
    expect(scores.f1).toBeCloseTo(2 / 3);
    expect(scores.support).toBe(3);
  });

  it('makes no claim and misses nothing when a class is absent on both sides', () => {
    expect(scoreBinary([false, false], [false, false])).toEqual({ precision: 1, recall: 1, f1: 1, support: 0 });
  });
});

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SentimentIntensityAnalyzer } from 'vader-sentiment';
import { loadVaderTweets, loadYoutubeSpam } from '../eval/labelled-sets';
import { loadLabelledComments } from '../test/labelled-comments';
import { prepareForVader } from './vader-input';
import { vaderCompound } from './vader-scorer';

const packageScore = (text: string): number => SentimentIntensityAnalyzer.polarity_scores(text).compound;

/** Texts whose score differs between vader-sentiment and our port (expected: none). */
const disagreements = (texts: readonly string[]): Array<{ text: string; package: number; ours: number }> =>
  texts.map((text) => ({ text, package: packageScore(text), ours: vaderCompound(text) })).filter((row) => row.package !== row.ours);

describe('vaderCompound, our port of vader-sentiment 1.1.3', () => {
  it('gives the package score on every public and fixture text, raw and as the classifier prepares it', () => {
    const { dev, test } = loadLabelledComments();
    const texts = [...loadVaderTweets(), ...loadYoutubeSpam(), ...dev, ...test].map((example) => example.text);
    expect(texts.length).toBeGreaterThan(1000);
    expect(disagreements([...texts, ...texts.map(prepareForVader)])).toEqual([]);
  });

  it('gives the package score on every lexicon entry, alone, boosted, negated, shouted and after "but"', () => {
    const lexiconPath = join(dirname(require.resolve('vader-sentiment/package.json')), 'vader_lexicon.txt');
    const entries = readFileSync(lexiconPath, 'utf8').split('\n').map((line) => line.split('\t')[0]).filter(Boolean);
    expect(entries.length).toBeGreaterThan(7000);
    const variants = entries.flatMap((entry) => [entry, `very ${entry}!`, `not a ${entry}`, `${entry.toUpperCase()} it is`, `ok but ${entry}??`]);
    expect(disagreements(variants)).toEqual([]);
  });

  it('keeps the rules VADER is known for: negation within three words, "but", idioms, boosters, caps', () => {
    const cases = ['not a great way to start the day', 'never so good', 'the food is good but the service is awful', 'yeah right', 'kind of good', 'GREAT show, really', 'at least it works', 'the bomb'];
    expect(disagreements(cases)).toEqual([]);
  });
});

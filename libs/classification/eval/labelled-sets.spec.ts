import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSemEvalSubtaskA, loadVaderTweets, loadYoutubeSpam, sentimentBySign, sentimentOfMeanRating, splitDevTest } from './labelled-sets';

describe('public labelled sets', () => {
  it('loads the shipped VADER tweets with their raters\' mean, classed by sign and by the neutral band', () => {
    const tweets = loadVaderTweets();
    expect(tweets.length).toBeGreaterThanOrEqual(1100);
    const byBand = tweets.map((tweet) => sentimentOfMeanRating(tweet.meanRating));
    for (const label of ['positive', 'negative', 'neutral'] as const) expect(byBand.filter((sentiment) => sentiment === label).length).toBeGreaterThan(150);
    expect(tweets.every((tweet) => tweet.meanRating >= -4 && tweet.meanRating <= 4)).toBe(true);
    expect(tweets.some((tweet) => /&(?:amp|lt|gt);/.test(tweet.text))).toBe(false);
    expect([sentimentOfMeanRating(0.51), sentimentOfMeanRating(0.5), sentimentOfMeanRating(-0.5), sentimentOfMeanRating(-0.51)]).toEqual(['positive', 'neutral', 'neutral', 'negative']);
    expect([sentimentBySign(0.01), sentimentBySign(0), sentimentBySign(-0.01)]).toEqual(['positive', 'neutral', 'negative']);
  });

  it('loads the shipped YouTube comments with both classes', () => {
    const comments = loadYoutubeSpam();
    expect(comments.length).toBeGreaterThanOrEqual(1000);
    expect(comments.filter((comment) => comment.spam).length).toBeGreaterThan(400);
    expect(comments.filter((comment) => !comment.spam).length).toBeGreaterThan(400);
  });

  it('splits by text: stable, disjoint, roughly half each way, duplicates on one side', () => {
    const tweets = loadVaderTweets();
    const first = splitDevTest(tweets);
    expect(splitDevTest([...tweets].reverse()).test.map((tweet) => tweet.text).sort()).toEqual(first.test.map((tweet) => tweet.text).sort());
    const devTexts = new Set(first.dev.map((tweet) => tweet.text));
    expect(first.test.filter((tweet) => devTexts.has(tweet.text))).toEqual([]);
    expect(first.test.length / tweets.length).toBeGreaterThan(0.4);
    expect(first.test.length / tweets.length).toBeLessThan(0.6);
  });

  it('reads a SemEval-2017 Task 4A file: quoted text, escaped quotes, duplicate ids once, other lines skipped', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'semeval-')), 'subtask-a.txt');
    writeFileSync(
      path,
      [
        '1\tpositive\t"Loving the ""new"" album &amp; the tour"\t',
        '2\tneutral\tSam Smith confirmed for Bond theme http://t.co/x\t',
        '2\tneutral\tSam Smith confirmed for Bond theme http://t.co/x\t',
        '3\tnegative\tWorst match ever',
        'not a data line',
      ].join('\n'),
    );
    expect(loadSemEvalSubtaskA(path)).toEqual([
      { text: 'Loving the "new" album & the tour', sentiment: 'positive' },
      { text: 'Sam Smith confirmed for Bond theme http://t.co/x', sentiment: 'neutral' },
      { text: 'Worst match ever', sentiment: 'negative' },
    ]);
  });
});

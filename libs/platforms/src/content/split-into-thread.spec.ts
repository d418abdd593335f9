import { threadFor } from './account-thread';
import { fitsPlatformText } from './publish-limits';
import { splitIntoThread } from './split-into-thread';
import { graphemeLength, xWeightedLength } from './text-length';

const within = (max: number) => (part: string) => [...part].length <= max;

describe('splitIntoThread', () => {
  it('leaves text that fits as one unnumbered part', () => {
    expect(splitIntoThread('Short and sweet.', within(280), 25)).toEqual(['Short and sweet.']);
  });

  it('cuts at sentence boundaries and numbers the parts n/total', () => {
    const text = 'First sentence here. Second sentence here. Third one.';
    expect(splitIntoThread(text, within(30), 25)).toEqual(['First sentence here. 1/3', 'Second sentence here. 2/3', 'Third one. 3/3']);
  });

  it('packs as many whole sentences as fit into a part', () => {
    expect(splitIntoThread('One. Two. Three. Four is longer.', within(20), 25)).toEqual(['One. Two. Three. 1/2', 'Four is longer. 2/2']);
  });

  it('cuts a sentence longer than a part at word boundaries', () => {
    const text = 'alpha beta gamma delta epsilon zeta eta theta.';
    const parts = splitIntoThread(text, within(20), 25);
    expect(parts).toEqual(['alpha beta gamma 1/3', 'delta epsilon 2/3', 'zeta eta theta. 3/3']);
  });

  it('cuts a word longer than a part between characters', () => {
    const parts = splitIntoThread('a'.repeat(25), within(14), 25);
    expect(parts).toEqual(['a'.repeat(10) + ' 1/3', 'a'.repeat(10) + ' 2/3', 'aaaaa 3/3']);
  });

  it('widens the label room when the thread reaches ten parts', () => {
    const text = Array.from({ length: 12 }, (_, i) => `Sentence number ${i}.`).join(' ');
    const parts = splitIntoThread(text, within(25), 25);
    expect(parts).toHaveLength(12);
    expect(parts[0]).toBe('Sentence number 0. 1/12');
    expect(parts[11]).toBe('Sentence number 11. 12/12');
    expect(parts.every((p) => [...p].length <= 25)).toBe(true);
  });

  it('counts by the platform rule: X weighs a link as 23 and an emoji as 2', () => {
    const text = `${'Launch 🚀 today at https://example.com/a/very/long/path/that/x/shortens. '.repeat(8)}`.trim();
    const parts = splitIntoThread(text, (part) => fitsPlatformText('x', part), 25);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(xWeightedLength(part)).toBeLessThanOrEqual(280);
    expect(parts.map((p) => p.replace(/ \d+\/\d+$/, '')).join(' ')).toBe(text);
  });

  it('stops measuring once the text makes more parts than allowed (it is refused anyway)', () => {
    let measured = 0;
    const fits = (part: string) => {
      measured++;
      return [...part].length <= 30;
    };
    const parts = splitIntoThread('Twenty-odd characters. '.repeat(5_000).trim(), fits, 25);
    expect(parts).toHaveLength(26);
    // A few measurements per part packed (each of two packing passes), not one per sentence of the 5,000.
    expect(measured).toBeLessThan(500);
  });
});

describe('threadFor', () => {
  const long = `${'A sentence of forty characters, roughly. '.repeat(10)}`.trim();
  const given = [{ content: 'The last word.', mediaUrls: [], altText: [] }];

  it('without autoSplit: the content as it is, then the given parts', () => {
    expect(threadFor({ content: long, thread: given }, 'x')).toEqual({ content: long, parts: given });
  });

  it('with autoSplit on a reply-chain platform: numbered parts by its own rule, then the given parts', () => {
    const { content, parts } = threadFor({ content: long, thread: given, autoSplit: true }, 'bluesky');
    expect(content).toMatch(/ 1\/2$/);
    expect(graphemeLength(content)).toBeLessThanOrEqual(300);
    expect(parts.map((p) => p.content)).toEqual([expect.stringMatching(/ 2\/2$/), 'The last word.']);
  });

  it('with autoSplit on a platform without reply chains: unchanged (its length rule refuses it as before)', () => {
    expect(threadFor({ content: long, autoSplit: true }, 'facebook')).toEqual({ content: long, parts: [] });
  });
});

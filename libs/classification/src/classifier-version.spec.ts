import { classifierVersion } from './classifier-version';
import { classifyComment } from './classify-comment';

describe('classifierVersion (the fingerprint CommentReclassified is labelled with)', () => {
  it('is the same for the same classifier, run after run', () => {
    expect(classifierVersion()).toMatch(/^[0-9a-f]{12}$/);
    expect(classifierVersion()).toBe(classifierVersion(classifyComment));
  });

  it('changes when the classifier answers one probe differently', () => {
    const readsPraiseAsNeutral = (text: string) => {
      const reading = classifyComment(text);
      return text === 'Love it, thank you so much!' ? { ...reading, sentiment: 'neutral' as const } : reading;
    };
    expect(classifyComment('Love it, thank you so much!').sentiment).not.toBe('neutral');
    expect(classifierVersion(readsPraiseAsNeutral)).not.toBe(classifierVersion());
  });
});

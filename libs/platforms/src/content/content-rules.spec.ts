import { checkText, TextRule } from './content-rules';
import { codePointLength, hashtagCount } from './text-length';

const CHARACTERS: TextRule = { field: 'caption', max: 10, measure: codePointLength, unit: 'characters' };
const HASHTAGS: TextRule = { field: 'caption', max: 2, measure: hashtagCount, unit: 'hashtags' };

describe('checkText', () => {
  it('lets through a text at every limit', () => {
    expect(checkText('#a #b 6789', CHARACTERS, HASHTAGS)).toBeNull();
  });

  it('refuses with the first rule the text breaks, saying which and by how much', () => {
    expect(checkText('#a #b #c', CHARACTERS, HASHTAGS)).toEqual({
      code: 'content_too_long',
      message: 'caption has 3 hashtags; the platform allows 2',
      retryable: false,
    });
    expect(checkText('#a #b #c and more', CHARACTERS, HASHTAGS)?.message).toBe('caption has 17 characters; the platform allows 10');
  });
});

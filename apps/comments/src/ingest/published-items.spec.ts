import { postTitleOf } from './published-items';

describe('postTitleOf', () => {
  it('is the first line of the post', () => {
    expect(postTitleOf('Spring collection is live\nShop now')).toBe('Spring collection is live');
  });

  it('shortens a long line to 80 characters, counted as code points, ending in an ellipsis', () => {
    const title = postTitleOf('😀'.repeat(100))!;
    expect(Array.from(title)).toHaveLength(80);
    expect(title.endsWith('…')).toBe(true);
    expect(postTitleOf('x'.repeat(80))).toBe('x'.repeat(80));
  });

  it('is null for a post without text (media only)', () => {
    expect(postTitleOf('')).toBeNull();
    expect(postTitleOf('  \n ')).toBeNull();
  });
});

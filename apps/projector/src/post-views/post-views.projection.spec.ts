import { contentPreview } from './post-views.projection';

describe('contentPreview', () => {
  it('keeps a body of up to 500 characters as it is', () => {
    expect(contentPreview('a'.repeat(500))).toBe('a'.repeat(500));
  });

  it('shortens a body over 500 characters to 500 and an ellipsis', () => {
    expect(contentPreview('a'.repeat(501))).toBe(`${'a'.repeat(500)}…`);
  });

  it('never cuts an emoji in half', () => {
    const preview = contentPreview('😀'.repeat(600));
    expect(Array.from(preview)).toHaveLength(501);
    expect(preview.endsWith('😀…')).toBe(true);
  });
});

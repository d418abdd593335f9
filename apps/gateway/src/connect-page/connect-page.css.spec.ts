import { connectPageCss } from './connect-page.css';

describe('the connect page stylesheet', () => {
  const accentOf = (css: string) => /--accent:(#[0-9a-f]{6})/.exec(css)![1];
  const onAccentOf = (css: string) => /--on-accent:(#[0-9a-f]{6})/.exec(css)![1];

  it('takes the brand accent, #rgb expanded', () => {
    expect(accentOf(connectPageCss('0B6E4F'))).toBe('#0b6e4f');
    expect(accentOf(connectPageCss('0a7'))).toBe('#00aa77');
  });

  it('falls back to the default for anything that is not a hex colour (nothing else reaches the css)', () => {
    for (const bad of ['red', '12345', '}body{display:none', '0a7;x', '', undefined]) expect(accentOf(connectPageCss(bad))).toBe('#1a56db');
  });

  it('writes white on a dark accent and black on a light one (the higher WCAG contrast)', () => {
    expect(onAccentOf(connectPageCss('1a56db'))).toBe('#ffffff');
    expect(onAccentOf(connectPageCss('000000'))).toBe('#ffffff');
    expect(onAccentOf(connectPageCss('ffeb3b'))).toBe('#000000');
    expect(onAccentOf(connectPageCss('ffffff'))).toBe('#000000');
  });
});

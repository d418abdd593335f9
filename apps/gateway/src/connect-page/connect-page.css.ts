/** The default accent: #1a56db on white has a contrast ratio of 6.2 (WCAG AA asks 4.5). */
const DEFAULT_ACCENT = '1a56db';

/**
 * The page's stylesheet, with the link's accent colour (validated hex, #rgb or #rrggbb). Text on
 * the accent is black or white, whichever contrasts more (WCAG relative luminance), so any brand
 * colour stays readable. Mobile first: one column, large touch targets.
 */
export function connectPageCss(accentParam: string | undefined): string {
  const accent = accentParam && /^([0-9a-f]{3}|[0-9a-f]{6})$/i.test(accentParam) ? expand(accentParam) : DEFAULT_ACCENT;
  const onAccent = contrast(luminance(accent), 1) >= contrast(luminance(accent), 0) ? '#ffffff' : '#000000';
  return `:root{--accent:#${accent};--on-accent:${onAccent};--text:#1f2328;--muted:#57606a;--line:#d0d7de;--bg:#f6f8fa}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--text);background:var(--bg)}
main{max-width:40rem;margin:0 auto;padding:1rem}
header{display:flex;align-items:center;gap:.75rem;flex-wrap:wrap}
.logo{max-height:48px;width:auto}
h1{font-size:1.5rem;margin:.5rem 0}
h2{font-size:1.15rem;margin:0 0 .25rem}
.platform{background:#fff;border:1px solid var(--line);border-radius:8px;padding:1rem;margin:1rem 0}
.state{margin:0 0 .5rem;color:var(--muted)}
.accounts{margin:0 0 .75rem;padding-left:1.25rem}
.fields{display:grid;gap:.35rem}
label{font-weight:600}
input{font:inherit;padding:.6rem;border:1px solid #8c959f;border-radius:6px;width:100%;min-height:44px}
button{font:inherit;font-weight:600;min-height:44px;padding:.6rem 1rem;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:var(--on-accent);cursor:pointer;margin-top:.25rem}
button:focus-visible,input:focus-visible{outline:3px solid var(--text);outline-offset:2px}
.done{margin:1.5rem 0 .5rem}
.done button{width:100%}
.notice{padding:.75rem 1rem;border-radius:6px;border:1px solid}
.notice.success{background:#dafbe1;border-color:#1a7f37;color:#0f3d1c}
.notice.error{background:#ffebe9;border-color:#cf222e;color:#6e0b10}
.help,.muted{color:var(--muted);margin:0}
.small{font-size:.875rem}
@media (min-width:40rem){main{padding:2rem 1rem}.fields button{justify-self:start}}
`;
}

function expand(hex: string): string {
  return (hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex).toLowerCase();
}

/** WCAG 2 relative luminance of an rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: number, b: number): number {
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

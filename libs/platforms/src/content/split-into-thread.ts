/**
 * Auto-split: over-long text as a numbered thread ("… 1/3", "… 2/3", "… 3/3"), each part keeping
 * the platform's own text rule (`fits`, e.g. fitsPlatformText). Parts end at sentence boundaries
 * where a sentence fits, else at word boundaries, else (one word longer than a part) between
 * user-perceived characters. Text that fits already is one part, unnumbered.
 *
 * Packing stops once there are more than `maxParts` parts: a text that long is refused anyway, and
 * measuring the rest (each platform's own count, per unit) would cost CPU time in proportion to
 * whatever length a request sends.
 */
export function splitIntoThread(text: string, fits: (part: string) => boolean, maxParts: number): string[] {
  if (fits(text)) return [text];
  // The label's room is reserved at its widest ("n/n"): every label of the thread is at most as wide.
  let total = 9;
  for (;;) {
    const label = ` ${total}/${total}`;
    const parts = pack(text, (part) => fits(part + label), 0, maxParts + 1);
    if (String(parts.length).length <= String(total).length) return parts.map((part, index) => `${part} ${index + 1}/${parts.length}`);
    total = parts.length;
  }
}

const sentenceSegmenter = new Intl.Segmenter(undefined, { granularity: 'sentence' });
const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The units text is cut into, coarsest first; each keeps its trailing whitespace so units join back into the text. */
const LEVELS: Array<(text: string) => string[]> = [
  (text) => [...sentenceSegmenter.segment(text)].map((s) => s.segment),
  (text) => text.split(/(?<=\s)(?=\S)/),
  (text) => [...graphemeSegmenter.segment(text)].map((s) => s.segment),
];

/**
 * Greedy packing of the text's units at `level` into parts that fit; a unit too long alone is cut at
 * the next level. Stops once `enough` parts are packed.
 */
function pack(text: string, fits: (part: string) => boolean, level: number, enough: number): string[] {
  const parts: string[] = [];
  let current = '';
  const flush = () => {
    if (current.trim() !== '') parts.push(current.trim());
    current = '';
  };
  for (const unit of LEVELS[level](text)) {
    if (parts.length >= enough) return parts;
    if (fits((current + unit).trim())) {
      current += unit;
      continue;
    }
    flush();
    // A grapheme is the smallest cut: one that cannot fit alone still goes (the platform then refuses that part).
    if (fits(unit.trim()) || level === LEVELS.length - 1) current = unit;
    else parts.push(...pack(unit, fits, level + 1, enough - parts.length));
  }
  flush();
  return parts.slice(0, enough);
}

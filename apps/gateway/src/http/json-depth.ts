const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * The nesting depth of JSON text, measured over its bytes as they arrive and
 * before anything parses them: JSON.parse and every walk after it recurse, so
 * a body nested 10,000 deep must be refused by something that does not.
 * Brackets inside strings do not count; every byte of a multi-byte UTF-8
 * character is >= 0x80, so none is mistaken for a quote or a bracket. Not a
 * validator: malformed JSON is the parser's to refuse.
 */
export class JsonDepthMeter {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** The deepest nesting seen so far. */
  deepest = 0;

  /** Reads the next bytes; true while the depth stays within maxDepth. */
  feed(bytes: Uint8Array, maxDepth: number): boolean {
    for (const byte of bytes) {
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) this.inString = false;
      } else if (byte === QUOTE) {
        this.inString = true;
      } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
        if (++this.depth > this.deepest) this.deepest = this.depth;
        if (this.depth > maxDepth) return false;
      } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
        this.depth--;
      }
    }
    return true;
  }
}

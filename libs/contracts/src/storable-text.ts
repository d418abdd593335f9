/**
 * Text the service stores must be text PostgreSQL can hold: `text` and `jsonb`
 * refuse U+0000, and a lone UTF-16 surrogate has no UTF-8 encoding at all. Such
 * strings are refused, never normalised: storing something other than what the
 * client sent would be worse than saying no.
 */

/** Why a string cannot be stored, or null when it can. */
export function unstorableReason(text: string): string | null {
  // One pass, no regex backtracking: NUL, a high surrogate not followed by a low one, a low one alone.
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit === 0) return 'contains the NUL character (U+0000)';
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else return 'contains a lone surrogate (not valid Unicode)';
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      return 'contains a lone surrogate (not valid Unicode)';
    }
  }
  return null;
}

/** The first string in a JSON value (keys included) that cannot be stored: its path and why. */
export interface UnstorableString {
  /** e.g. `content`, `accounts[2]`, `firstComments[0]`, or `(key) a.b` for a key. */
  path: string;
  reason: string;
}

const pathOf = (parent: string, key: string | number): string =>
  typeof key === 'number' ? `${parent}[${key}]` : parent ? `${parent}.${key}` : key;

/**
 * Walks a parsed JSON value without recursion (its depth is the caller's to
 * bound, this walk is safe whatever it is) and reports the first unstorable string.
 */
export function findUnstorableString(value: unknown, root = ''): UnstorableString | null {
  const pending: { value: unknown; path: string }[] = [{ value, path: root }];
  while (pending.length) {
    const { value: current, path } = pending.pop()!;
    if (typeof current === 'string') {
      const reason = unstorableReason(current);
      if (reason) return { path: path || '(the body)', reason };
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) pending.push({ value: current[i], path: pathOf(path, i) });
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i];
        const keyReason = unstorableReason(key);
        if (keyReason) return { path: `(key) ${pathOf(path, JSON.stringify(key).slice(1, -1))}`, reason: keyReason };
        pending.push({ value: child, path: pathOf(path, key) });
      }
    }
  }
  return null;
}

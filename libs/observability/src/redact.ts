/** Field names whose values are secrets wherever they appear in a log line (any depth, any case). */
const SECRET_KEY = /authorization|token|secret|password|api[-_]?key|credential|encryption[-_]?key|cookie/i;

/** Secrets recognisable inside free text: API keys, bearer credentials, tokens in URLs. */
const SECRET_TEXT: [RegExp, string][] = [
  [/\bsp_[A-Za-z0-9_-]+/g, 'sp_[redacted]'],
  [/\b(Bearer|Basic)\s+[^\s"',;]+/gi, '$1 [redacted]'],
  [/\b(access_token|refresh_token|token|api_key|key)=[^&\s"']+/gi, '$1=[redacted]'],
];

export const REDACTED = '[redacted]';

/**
 * Removes secrets from free text: the patterns above, and exact values the
 * process knows to be secret (TOKEN_ENCRYPTION_KEY) wherever they occur.
 */
export function scrubText(text: string, knownSecrets: readonly string[] = []): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_TEXT) out = out.replace(pattern, replacement);
  for (const secret of knownSecrets) if (secret) out = out.split(secret).join(REDACTED);
  return out;
}

/** A copy of a log value with secret-named fields replaced and every string scrubbed; cycles are cut. */
export function redactSecrets(value: unknown, knownSecrets: readonly string[] = [], seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return scrubText(value, knownSecrets);
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (value instanceof Error) {
    return { type: value.name, message: scrubText(value.message, knownSecrets), stack: value.stack && scrubText(value.stack, knownSecrets) };
  }
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, knownSecrets, seen));
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) && field !== undefined && field !== null ? REDACTED : redactSecrets(field, knownSecrets, seen);
  }
  return out;
}

import { createHash, randomBytes } from 'node:crypto';

const KEY_PREFIX = 'sp_';

/**
 * A new API key: 256 random bits. Only its SHA-256 digest is stored; with that
 * much entropy a fast digest cannot be brute-forced, and every request can be
 * authenticated with one indexed lookup.
 */
export function generateApiKey(): { key: string; hash: Buffer; displayPrefix: string } {
  const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { key, hash: hashApiKey(key), displayPrefix: key.slice(0, KEY_PREFIX.length + 6) };
}

export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

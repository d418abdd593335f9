import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The secret that binds a sign-in's completion to whoever started it: answered once by
 * POST /api/v1/accounts/connect, shown again with the connection id to
 * POST /api/v1/accounts/connect/complete, never carried in a url. 256 random bits, so its
 * SHA-256 digest is all that is stored (as for API keys).
 */
export function newConnectVerifier(): { verifier: string; hash: Buffer } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, hash: connectVerifierHash(verifier) };
}

export function connectVerifierHash(verifier: string): Buffer {
  return createHash('sha256').update(verifier, 'utf8').digest();
}

/** Whether `verifier` is the one whose digest was stored (compared in constant time). */
export function verifierMatches(verifier: string, storedHash: Buffer): boolean {
  const given = connectVerifierHash(verifier);
  return given.length === storedHash.length && timingSafeEqual(given, storedHash);
}

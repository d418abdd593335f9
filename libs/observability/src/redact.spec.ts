import { redactSecrets, REDACTED, scrubText } from './redact';

describe('redactSecrets', () => {
  it('replaces secret-named fields at any depth, whatever their case', () => {
    const line = { headers: { Authorization: 'Bearer sp_abc', 'idempotency-key': 'k-1' }, account: { credentials: { accessToken: 'tok' } }, apiKey: 'x', TOKEN_ENCRYPTION_KEY: 'y' };
    expect(redactSecrets(line)).toEqual({ headers: { Authorization: REDACTED, 'idempotency-key': 'k-1' }, account: { credentials: REDACTED }, apiKey: REDACTED, TOKEN_ENCRYPTION_KEY: REDACTED });
  });

  it('scrubs API keys, bearer credentials and URL tokens out of free text and errors', () => {
    expect(scrubText('key sp_Zx9-_q used; Authorization: Bearer abc.def; GET /me?access_token=EAAB&x=1')).toBe(
      'key sp_[redacted] used; Authorization: Bearer [redacted]; GET /me?access_token=[redacted]&x=1',
    );
    const redacted = redactSecrets({ err: new Error('refused sp_secret1') }) as { err: { message: string; stack: string } };
    expect(redacted.err.message).toBe('refused sp_[redacted]');
    expect(redacted.err.stack).not.toContain('sp_secret1');
  });

  it('removes known secret values wherever they occur, and survives cycles', () => {
    const cyclic: Record<string, unknown> = { note: 'key is c2VjcmV0LWtleQ== here' };
    cyclic.self = cyclic;
    expect(redactSecrets(cyclic, ['c2VjcmV0LWtleQ=='])).toEqual({ note: `key is ${REDACTED} here`, self: '[circular]' });
  });
});

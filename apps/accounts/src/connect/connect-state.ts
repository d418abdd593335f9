import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * An id signed for one purpose: `<id>.<HMAC-SHA256>`, so a forged or altered value is refused
 * before any lookup. The key is derived from the token encryption key and the purpose, so a
 * value signed for one purpose (a sign-in's state) is never accepted for another (a connect link).
 */
export class SignedId {
  private readonly key: Buffer;

  constructor(secret: Buffer, purpose: string) {
    this.key = createHmac('sha256', secret).update(purpose).digest();
  }

  sign(id: string): string {
    return `${id}.${this.mac(id)}`;
  }

  /** The id, or null for a value this service did not sign (for this purpose). */
  verify(signed: string): string | null {
    const dot = signed.lastIndexOf('.');
    if (dot <= 0) return null;
    const id = signed.slice(0, dot);
    const given = Buffer.from(signed.slice(dot + 1));
    const expected = Buffer.from(this.mac(id));
    return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
  }

  private mac(id: string): string {
    return createHmac('sha256', this.key).update(id).digest('base64url');
  }
}

/**
 * The OAuth `state` of a sign-in: the id of the stored connect request (bound to its
 * workspace, single-use, short-lived in the table), signed.
 */
export class ConnectState extends SignedId {
  constructor(secret: Buffer) {
    super(secret, 'account-connect-state');
  }
}

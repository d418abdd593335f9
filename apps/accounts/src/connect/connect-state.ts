import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The OAuth `state` of a sign-in: the id of the stored connect request (bound to its
 * workspace, single-use, short-lived in the table), signed so a forged or altered state
 * is refused before any lookup. The signing key is derived from the token encryption key.
 */
export class ConnectState {
  private readonly key: Buffer;

  constructor(secret: Buffer) {
    this.key = createHmac('sha256', secret).update('account-connect-state').digest();
  }

  sign(requestId: string): string {
    return `${requestId}.${this.mac(requestId)}`;
  }

  /** The request id, or null for a state this service did not sign. */
  verify(state: string): string | null {
    const dot = state.lastIndexOf('.');
    if (dot <= 0) return null;
    const id = state.slice(0, dot);
    const given = Buffer.from(state.slice(dot + 1));
    const expected = Buffer.from(this.mac(id));
    return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
  }

  private mac(id: string): string {
    return createHmac('sha256', this.key).update(id).digest('base64url');
  }
}

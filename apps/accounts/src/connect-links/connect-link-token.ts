import { SignedId } from '../connect/connect-state';

/**
 * The token in a connect link's url: the link's id, signed (HMAC-SHA256, key derived from the
 * token encryption key). Signed rather than a random secret whose digest is stored: the page's
 * url is also each sign-in's redirectUri, which its connect request keeps as written, so the
 * token would sit in the database in clear anyway; the signature refuses an altered or forged
 * link before any lookup, and the row still holds what a signature cannot (revocation, expiry).
 */
export class ConnectLinkToken extends SignedId {
  constructor(secret: Buffer) {
    super(secret, 'connect-link');
  }
}

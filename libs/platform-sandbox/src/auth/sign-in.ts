import type { Platform } from '@app/contracts';
import type { PlatformRoute } from '../dialect';
import type { SandboxAuthority, SandboxIdentity, TokenPair } from './authority';

/**
 * One platform's sign-in as the sandbox plays it, from the platform's documentation:
 * the id format of its accounts, the tokens it issues (lifetimes, refresh, rotation), and
 * its sign-in routes (consent step, code exchange, refresh, identity, revocation), served
 * under the platform's prefix beside its API routes. One file per platform in ./platforms.
 */
export interface SandboxSignIn {
  platform: Platform;
  /** A new identity's platform id, in the platform's own format (numeric id, URN, DID...). */
  newAccountId(auth: SandboxAuthority, kind: SandboxIdentity['kind']): string;
  /**
   * Scopes a test account consents to besides the documented ones of the endpoints (see
   * documentedConsent): those that give a sign-in something other than an endpoint (X's
   * offline.access, for a refresh token).
   */
  consentExtras?: readonly string[];
  /** The tokens a completed sign-in gives (as the token endpoint would answer them). */
  issueTokens(auth: SandboxAuthority, identity: SandboxIdentity, clientId: string | null, scopes: string[]): TokenPair;
  routes: PlatformRoute[];
}

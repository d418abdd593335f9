import type { Platform } from '@app/contracts';
import type { PlatformIdentity } from '../connector';

/**
 * How an account is signed in to its platform and kept signed in: the port the accounts
 * service calls. One implementation per platform (`<platform>.auth.ts`), each speaking
 * that platform's documented sign-in API through PlatformHttp (retries, timeouts, its
 * error dialect), so it can be pointed at the platform sandbox like the connectors.
 *
 * Errors: a definitive refusal of a credential (revoked, invalid_grant, wrong password,
 * a token the platform no longer accepts) throws CredentialRefused; anything transient
 * (5xx, 429, timeout) throws PlatformCallFailed with `retryable: true`, and the caller
 * keeps the account as it is.
 */

/** Our app as registered on a platform (from configuration, or registered at first use on a Mastodon instance). */
export interface OAuthApp {
  clientId: string;
  clientSecret: string | null;
  /** The callback registered with the platform: the service's GET /api/v1/accounts/connect/callback. */
  redirectUri: string;
}

/** What a platform's token endpoint (or session endpoint) gave us. Times are ISO 8601; null = not told / never. */
export interface TokenSet {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: string | null;
  refreshTokenExpiresAt: string | null;
  /** Scopes granted (the platform's own names); [] when the platform does not say. */
  scopes: string[];
}

/**
 * How the credential is renewed:
 * - oauth2_refresh: a refresh_token grant (X, LinkedIn, TikTok, Google, Pinterest);
 * - meta_page: a Facebook Page token made from a long-lived user token: it does not expire,
 *   but the user can invalidate it (then the account needs re-authorisation);
 * - long_lived: a long-lived token re-extended with itself before it ends (Threads, 60 days);
 * - atproto_session: a Bluesky session (accessJwt / refreshJwt) made with an app password;
 * - static: a token that does not expire and cannot be renewed (Mastodon).
 */
export type CredentialKind = 'oauth2_refresh' | 'meta_page' | 'long_lived' | 'atproto_session' | 'static';

export interface StoredCredentials extends TokenSet {
  kind: CredentialKind;
}

/** One account a sign-in (or a credential handed in) gave access to. */
export interface SignedInAccount {
  platform: Platform;
  identity: PlatformIdentity;
  credentials: StoredCredentials;
}

export interface AuthorizationRequest {
  app: OAuthApp;
  /** Opaque, single-use, signed by the accounts service; returned by the platform on the callback. */
  state: string;
  /** PKCE S256 challenge of the verifier the accounts service keeps (sent by platforms that take PKCE). */
  codeChallenge: string;
  /** Mastodon: the instance the user signs in on. */
  instanceUrl: string | null;
}

export interface CodeExchange {
  app: OAuthApp;
  code: string;
  codeVerifier: string;
  instanceUrl: string | null;
}

export interface PlatformAuth {
  readonly platform: Platform;
  /** Whether accounts connect through a browser sign-in (OAuth); false for Bluesky (app password). */
  readonly signsInWithOAuth: boolean;
  /**
   * The scopes the consent step asks for (the platform's own names). They must cover what the
   * platform's documentation requires of every endpoint we call (libs/platforms/src/scopes;
   * checked by sign-in-scopes.spec.ts). [] where a sign-in has no scopes (Bluesky).
   */
  readonly scopes: readonly string[];
  /**
   * The platform whose app (client id and secret) this sign-in uses, when not its own:
   * Instagram signs in through Facebook Login with the Facebook app.
   */
  readonly appPlatform?: Platform;
  /** Platforms whose apps are registered per server at first use (Mastodon): registers ours there. */
  registerApp?(instanceUrl: string, redirectUri: string): Promise<OAuthApp>;
  /** The platform's consent page url the user is sent to. */
  authorizationUrl(request: AuthorizationRequest): string;
  /** Exchanges the code from the callback for tokens (and, on Meta, for a long-lived token). */
  exchangeCode(exchange: CodeExchange): Promise<TokenSet>;
  /**
   * Reads who a credential belongs to and the accounts it gives (one Facebook Login gives a
   * page account per page and an Instagram account per linked professional account).
   * `instanceUrl`: the Mastodon instance or Bluesky PDS, when known. Throws CredentialRefused
   * when the platform refuses the token.
   */
  identify(tokens: TokenSet, instanceUrl: string | null): Promise<SignedInAccount[]>;
  /** Bluesky: a session from a handle (or DID / email) and an app password. */
  logIn?(input: { identifier: string; password: string; instanceUrl: string | null }): Promise<SignedInAccount[]>;
  /**
   * A fresh credential. The answer's refreshToken is null when the platform sent none (the
   * caller keeps the stored one). Throws CredentialRefused when the platform refuses for good.
   */
  refresh(app: OAuthApp | null, current: StoredCredentials, identity: PlatformIdentity): Promise<TokenSet>;
  /** Revokes the credential where the platform offers it; resolves quietly where it does not. */
  revoke(app: OAuthApp | null, current: StoredCredentials, identity: PlatformIdentity): Promise<void>;
}

/** The platform refused a credential for good: the account needs the user to sign in again. */
export class CredentialRefused extends Error {
  constructor(
    /** The platform's own code (invalid_grant, 190, ExpiredToken...) or ours. */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'CredentialRefused';
  }
}

/** ISO time `seconds` from now, or null when the platform gave no lifetime. */
export function expiresIn(seconds: unknown, now: number = Date.now()): string | null {
  const value = typeof seconds === 'string' ? Number(seconds) : seconds;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? new Date(now + value * 1000).toISOString() : null;
}

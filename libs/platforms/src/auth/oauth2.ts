import { createHash, randomBytes } from 'node:crypto';
import type { Platform } from '@app/contracts';
import type { PlatformError, PlatformIdentity } from '../connector';
import { at, stringAt } from '../connectors/connector-context';
import { codeForStatus, isTransientStatus, PlatformCallFailed, PlatformHttp, PlatformResponse } from '../http/platform-http';
import type { AuthContext } from './auth-context';
import { CredentialRefused, expiresIn, OAuthApp, SignedInAccount, StoredCredentials, TokenSet } from './platform-auth';

/**
 * What the OAuth 2.0 authorization-code platforms (Google, TikTok, Pinterest...) share:
 * where their sign-in endpoints are, the token endpoint's form post and answer (RFC 6749
 * §4.1.3, §5.1, §6) and its error body (§5.2). Each platform keeps its own parameters.
 */

/** A sign-in endpoint: on the platform's real host, or under the configured base (the sandbox). */
export function signInUrl(ctx: AuthContext, realHost: string, path: string): string {
  return `${ctx.signInBaseUrl ?? realHost}${path}`;
}

export function withQuery(url: string, params: Record<string, string>): string {
  return `${url}?${new URLSearchParams(params)}`;
}

/** The app's credentials are needed by every call past the consent step. */
export function requireApp(app: OAuthApp | null): OAuthApp & { clientSecret: string } {
  if (!app?.clientSecret) throw new Error('this platform needs the OAuth app (client id and secret) to renew or revoke a credential');
  return { ...app, clientSecret: app.clientSecret };
}

/** The stored refresh token; without one the credential cannot be renewed and the user signs in again. */
export function refreshTokenOf(current: StoredCredentials): string {
  if (!current.refreshToken) throw new CredentialRefused('no_refresh_token', 'the credential has no refresh token to renew it with');
  return current.refreshToken;
}

/** A PKCE verifier and its S256 challenge (RFC 7636 §4.1, §4.2): the accounts service keeps the verifier, the consent url carries the challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function bearerHeader(accessToken: string): Record<string, string> {
  return { authorization: `Bearer ${accessToken}` };
}

/** A confidential client's HTTP Basic credentials, base64(client_id:client_secret), as X and Pinterest take them. */
export function basicHeader(clientId: string, clientSecret: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` };
}

/** An account signed in with an authorization code: renewed with its refresh token. */
export function oauth2Account(platform: Platform, identity: PlatformIdentity, tokens: TokenSet): SignedInAccount {
  return { platform, identity, credentials: { ...tokens, kind: 'oauth2_refresh' } };
}

const TRANSIENT_OAUTH_ERRORS = new Set(['server_error', 'temporarily_unavailable']);

/** RFC 6749 §5.2 error body: {"error": "invalid_grant", "error_description": "..."}. */
export function mapOAuthError(response: PlatformResponse): PlatformError {
  const error = stringAt(response.body, 'error');
  return {
    code: error ?? codeForStatus(response.status),
    message: stringAt(response.body, 'error_description') || `the token endpoint answered HTTP ${response.status}`,
    retryable: isTransientStatus(response.status) || (error !== undefined && TRANSIENT_OAUTH_ERRORS.has(error)),
  };
}

/**
 * A token endpoint's answer (RFC 6749 §5.1). No refresh_token in it (Google's refresh) gives
 * null: the caller keeps the one it has. The refresh token's lifetime is named
 * `refresh_expires_in` by TikTok and `refresh_token_expires_in` by Google and Pinterest.
 * Scopes come space- (Google) or comma-separated (TikTok).
 */
export function tokenSetFrom(body: unknown): TokenSet {
  const accessToken = stringAt(body, 'access_token');
  if (!accessToken) {
    // A 2xx without a token: report the platform's own error if it put one there.
    throw new PlatformCallFailed({
      code: stringAt(body, 'error') || 'unexpected_response',
      message: stringAt(body, 'error_description') || "the token endpoint's answer had no access_token",
      retryable: false,
    });
  }
  return {
    accessToken,
    refreshToken: stringAt(body, 'refresh_token') ?? null,
    expiresAt: expiresIn(at(body, 'expires_in')),
    refreshTokenExpiresAt: expiresIn(at(body, 'refresh_expires_in') ?? at(body, 'refresh_token_expires_in')),
    scopes: (stringAt(body, 'scope') ?? '').split(/[\s,]+/).filter(Boolean),
  };
}

/** POSTs a grant to the token endpoint as a form and reads the tokens. */
export async function requestTokens(http: PlatformHttp, url: string, form: Record<string, string>, headers?: Record<string, string>): Promise<TokenSet> {
  const response = await http.send({ method: 'POST', url, form, headers });
  return tokenSetFrom(response.body);
}

/**
 * Runs a sign-in call; a definite failure the platform uses to refuse the credential for
 * good (`refused`: invalid_grant, a revoked token...) becomes CredentialRefused. Transient
 * failures, and refusals of our own request (invalid_client...), stay PlatformCallFailed.
 */
export async function refusingCredential<T>(call: () => Promise<T>, refused: (error: PlatformError) => boolean): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof PlatformCallFailed && !error.error.retryable && refused(error.error)) {
      throw new CredentialRefused(error.error.code, error.error.message);
    }
    throw error;
  }
}

export const isInvalidGrant = (error: PlatformError): boolean => error.code === 'invalid_grant';

import { PlatformRefusal, PlatformRoute, required } from '../../dialect';
import { graphTokenRefusal } from '../../dialects/meta-graph';
import { authenticated } from './authorization-code';
import type { AuthorizationCode, IssuedToken, SandboxAuthority, SandboxIdentity, TokenPair } from '../authority';

/**
 * What Facebook Login (pages and Instagram) and Threads sign-in share in the sandbox: the
 * app's secret, the consent step, the code exchange's checks, Meta's long-lived user tokens
 * and Graph's node fields.
 */

/** Long-lived user tokens last 60 days (Facebook Login and Threads "Long-Lived Access Tokens" pages). */
export const LONG_LIVED_SECONDS = 60 * 86_400;

/** The Meta app a sign-in belongs to: Facebook Login (pages and Instagram), or the Threads app. */
export type MetaProduct = 'facebook' | 'threads';

/**
 * The app's secret checked, the app being held to the first secret the sandbox saw for it
 * (as for every app registered in a developer console): Graph answers a wrong one with
 * code 1, an OAuthException.
 */
export function checkApp(auth: SandboxAuthority, product: MetaProduct, clientId: string | null, clientSecret: string): void {
  if (!authenticated(auth, product, { id: clientId ?? undefined, secret: clientSecret })) throw new PlatformRefusal(400, '1', 'Error validating client secret.');
}

/**
 * The consent step (Facebook Login dialog, Threads Authorization Window): client_id and
 * redirect_uri (and the product's other required parameters) present; the code is bound to
 * both, the exchange must repeat them. The sandbox user consents at once — the identity named
 * by `sandbox_user`, else the product's default user — and goes back with ?code=&state=, or
 * with Meta's denial (error=access_denied, error_reason=user_denied) for `sandbox_deny=1`.
 */
export function consentRoute(url: string, product: MetaProduct, requiredParams: string[]): PlatformRoute {
  return {
    method: 'GET',
    url,
    operation: 'authorize',
    auth: 'none',
    handle: ({ store, query }) => {
      for (const name of ['client_id', 'redirect_uri', ...requiredParams]) required(query[name], name, '100');
      if (query.response_type !== undefined && query.response_type !== 'code') throw new PlatformRefusal(400, '100', 'response_type must be code');
      if (!URL.canParse(query.redirect_uri)) throw new PlatformRefusal(400, '100', 'redirect_uri is not a url');
      const location = new URL(query.redirect_uri);
      if (query.sandbox_deny === '1') {
        location.searchParams.set('error', 'access_denied');
        location.searchParams.set('error_reason', 'user_denied');
        location.searchParams.set('error_description', 'Permissions error');
      } else {
        const user = signedInUser(store.auth, product, query.sandbox_user);
        const scopes = (query.scope ?? '').split(/[\s,]+/).filter((scope) => scope !== '');
        location.searchParams.set('code', store.auth.grantCode({ identityKey: user.key, clientId: query.client_id, redirectUri: query.redirect_uri, codeChallenge: null, codeChallengeMethod: null, scopes }));
      }
      if (query.state !== undefined) location.searchParams.set('state', query.state);
      return { status: 302, headers: { location: location.toString() } };
    },
  };
}

function signedInUser(auth: SandboxAuthority, product: MetaProduct, key: string | undefined): SandboxIdentity {
  if (key === undefined) return auth.defaultUser(product);
  const user = auth.identity(key);
  if (!user || user.platform !== product || user.kind !== 'user') throw new PlatformRefusal(400, '100', `sandbox_user ${key} is not a ${product} user`);
  return user;
}

/** The code exchange: the app and its secret, then the code — once, for the same client and redirect_uri. */
export function redeemCode(auth: SandboxAuthority, product: MetaProduct, params: Record<string, unknown>): AuthorizationCode {
  const clientId = required(params.client_id, 'client_id', '100');
  checkApp(auth, product, clientId, required(params.client_secret, 'client_secret', '100'));
  const grant = auth.redeemCode(required(params.code, 'code', '100'), { clientId, redirectUri: required(params.redirect_uri, 'redirect_uri', '100'), codeVerifier: null });
  if (typeof grant === 'string') throw new PlatformRefusal(400, '100', grant);
  return grant;
}

/** When each long-lived token was issued: the authority does not tell a long-lived token from a short-lived one. */
const longLivedIssuedAt = new WeakMap<IssuedToken, number>();

export function issueLongLived(auth: SandboxAuthority, identityKey: string, clientId: string | null, scopes: string[]): TokenPair {
  const pair = auth.issue(identityKey, { clientId, scopes, accessTtlSeconds: LONG_LIVED_SECONDS });
  const issued = auth.tokens.get(pair.accessToken);
  if (issued) longLivedIssuedAt.set(issued, auth.now());
  return pair;
}

/** Seconds since a long-lived token was issued; null for any other token. */
export function longLivedAgeSeconds(auth: SandboxAuthority, token: IssuedToken): number | null {
  const issuedAt = longLivedIssuedAt.get(token);
  return issuedAt === undefined ? null : (auth.now() - issuedAt) / 1000;
}

/** A token endpoint's answer: {access_token, token_type, expires_in} (Facebook Login and Threads token pages). */
export function tokenAnswer(pair: TokenPair) {
  return { body: { access_token: pair.accessToken, token_type: 'bearer', ...(pair.expiresIn !== null ? { expires_in: pair.expiresIn } : {}) } };
}

/** A token passed as a parameter, resolved like a bearer token (unknown, expired and revoked ones refused with Graph's 190). */
export function checkedToken(auth: SandboxAuthority, token: unknown): { identity: SandboxIdentity; token: IssuedToken } {
  const checked = auth.check(required(token, 'access_token', '100'));
  if (!checked.ok) throw graphTokenRefusal(checked.reason);
  return checked;
}

/**
 * A node's answer with the requested `fields` (else its defaults), as Graph gives it: a field
 * the node type does not have is error 100, one without a value is left out. Nested field
 * lists (`instagram_business_account{id,username}`) get the whole sub-object.
 */
export function graphFields(node: Record<string, unknown>, nodeType: string, requested: string | undefined, defaults: string): Record<string, unknown> {
  const names = (requested ?? defaults).replace(/\{[^}]*\}/g, '').split(',').map((name) => name.trim()).filter((name) => name !== '');
  const answer: Record<string, unknown> = {};
  for (const name of names) {
    if (!(name in node)) throw new PlatformRefusal(400, '100', `(#100) Tried accessing nonexisting field (${name}) on node type (${nodeType})`);
    if (node[name] !== null && node[name] !== undefined) answer[name] = node[name];
  }
  return answer;
}

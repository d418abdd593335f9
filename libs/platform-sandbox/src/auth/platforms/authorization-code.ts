import type { Platform } from '@app/contracts';
import type { PlatformRoute, RouteAnswer, RouteContext } from '../../dialect';
import type { AuthorizationCode, SandboxAuthority, SandboxIdentity, TokenPair } from '../authority';
import { consentingUser, param, redirectBack } from './oauth-routes';

/**
 * The authorization-code grant (RFC 6749 §4.1, refresh §6) as the sandbox plays it for the
 * platforms whose apps are registered in a developer console (Google, TikTok, Pinterest):
 * the consent step and the token endpoint, each platform bringing its parameter names,
 * error answer, scopes and token lifetimes.
 */
export interface AuthorizationCodePlatform {
  platform: Platform;
  /** The platform's answer to a refused request, from RFC 6749's error code (invalid_grant...). */
  refuse(status: number, error: string, description: string): RouteAnswer;
  /** The scopes it knows: others are refused (invalid_scope). */
  scopes: readonly string[];
  /** How its scope parameter separates scopes: Google a space, TikTok and Pinterest a comma. */
  scopeSeparator: string;
  /** The tokens a redeemed code gives. */
  tokensFor(auth: SandboxAuthority, grant: AuthorizationCode): TokenPair;
  /** The refresh_token grant: lifetimes, and whether the refresh token sent is spent (rotation). */
  refresh: { rotate: boolean; accessTtlSeconds: number; refreshTtlSeconds: number | null };
  /** The token endpoint's answer. */
  tokenAnswer(pair: TokenPair, identity: SandboxIdentity, grantType: 'authorization_code' | 'refresh_token'): RouteAnswer;
}

/**
 * The app as registered in the platform's developer console, which has no API: the sandbox
 * registers the app the service is configured with the first time it sees it (its redirect
 * uri at the consent step, its secret at the first token request) and holds it to them
 * from then on, refusing another redirect uri or secret as the platform refuses a
 * misconfigured app. Keyed per platform: a test may use one client id everywhere.
 */
function consoleApp(auth: SandboxAuthority, platform: Platform, clientId: string) {
  const key = `${platform}:${clientId}`;
  const app = auth.clients.get(key) ?? { clientId, clientSecret: '', redirectUris: [], platform };
  auth.clients.set(key, app);
  return app;
}

function acceptsRedirectUri(auth: SandboxAuthority, platform: Platform, clientId: string, redirectUri: string): boolean {
  const app = consoleApp(auth, platform, clientId);
  if (app.redirectUris.length === 0) app.redirectUris.push(redirectUri);
  return app.redirectUris.includes(redirectUri);
}

/** The client a token or revocation request names, authenticated by its secret. */
export function authenticated(auth: SandboxAuthority, platform: Platform, client: { id?: string; secret?: string }): client is { id: string; secret: string } {
  if (!client.id || !client.secret) return false;
  const app = consoleApp(auth, platform, client.id);
  if (app.clientSecret === '') app.clientSecret = client.secret;
  return app.clientSecret === client.secret;
}

export interface AuthorizationRequest {
  clientId?: string;
  redirectUri?: string;
  responseType?: string;
  scope?: string;
  state?: string;
  /** Only where the platform takes PKCE on this flow. */
  codeChallenge?: string;
  codeChallengeMethod?: string;
}

/** How a platform's consent step reads its query, beyond what every one of them reads (client, redirect_uri, response_type, scope, state). */
export interface ConsentQuery {
  /** The parameter naming the client: client_id, TikTok's client_key. */
  clientIdParam?: string;
  /** Whether it reads code_challenge and code_challenge_method (Google); the others take no PKCE on this flow. */
  pkce?: boolean;
  /** The platform's own refusal, answered before the common checks (TikTok's required state, Google's access_type), or undefined. */
  precheck?: (ctx: RouteContext) => RouteAnswer | undefined;
  /** Sees the code granted (Google remembers access_type=offline). */
  onGrant?: (ctx: RouteContext, grant: AuthorizationCode) => void;
}

/** GET `url`: the consent step (see authorize) with the request read from the query. */
export function authorizeRoute(url: string, p: AuthorizationCodePlatform, { clientIdParam = 'client_id', pkce = false, precheck, onGrant }: ConsentQuery = {}): PlatformRoute {
  return {
    method: 'GET',
    url,
    operation: 'authorize',
    auth: 'none',
    handle: (ctx) => {
      const refused = precheck?.(ctx);
      if (refused) return refused;
      const { query } = ctx;
      const request: AuthorizationRequest = {
        clientId: query[clientIdParam],
        redirectUri: query.redirect_uri,
        responseType: query.response_type,
        scope: query.scope,
        state: query.state,
        ...(pkce ? { codeChallenge: query.code_challenge, codeChallengeMethod: query.code_challenge_method } : {}),
      };
      return authorize(ctx, p, request, onGrant && ((grant) => onGrant(ctx, grant)));
    },
  };
}

/**
 * The consent step, approved at once by `sandbox_user` (an identity key) or the platform's
 * default user; `sandbox_deny=1` is the user declining. Until the client and its redirect
 * uri are known good nothing goes back to the app: those errors show on the platform's
 * page; later ones go back to the redirect uri (§4.1.2.1) with the state. `onGrant` sees
 * the code granted (for what the platform remembers of the request, Google's access_type).
 */
export function authorize(ctx: RouteContext, p: AuthorizationCodePlatform, request: AuthorizationRequest, onGrant?: (grant: AuthorizationCode) => void): RouteAnswer {
  const { clientId, redirectUri } = request;
  if (!clientId) return p.refuse(400, 'invalid_request', 'Missing required parameter: client_id');
  if (!redirectUri || !URL.canParse(redirectUri)) return p.refuse(400, 'invalid_request', 'Missing or malformed required parameter: redirect_uri');
  if (!acceptsRedirectUri(ctx.store.auth, p.platform, clientId, redirectUri)) {
    return p.refuse(400, 'redirect_uri_mismatch', `The redirect URI ${redirectUri} does not match the ones registered for the app`);
  }
  const back = (params: Record<string, string>) => redirectBack(redirectUri, params, request.state);
  if (request.responseType !== 'code') return back({ error: 'unsupported_response_type', error_description: 'response_type must be code' });
  const scopes = (request.scope ?? '').split(p.scopeSeparator).filter(Boolean);
  const unknown = scopes.find((scope) => !p.scopes.includes(scope));
  if (scopes.length === 0 || unknown !== undefined) return back({ error: 'invalid_scope', error_description: unknown ? `Unknown scope: ${unknown}` : 'Missing required parameter: scope' });
  if (request.codeChallenge !== undefined && !['S256', 'plain', undefined].includes(request.codeChallengeMethod)) {
    return back({ error: 'invalid_request', error_description: 'code_challenge_method must be S256 or plain' });
  }
  if (ctx.query.sandbox_deny === '1') return back({ error: 'access_denied', error_description: 'The user denied the request' });
  const user = consentingUser(ctx, p.platform);
  if (!user) return p.refuse(400, 'invalid_request', `the sandbox has no ${p.platform} user ${ctx.query.sandbox_user}`);
  const code = ctx.store.auth.grantCode({
    identityKey: user.key,
    clientId,
    redirectUri,
    codeChallenge: request.codeChallenge ?? null,
    // RFC 7636 §4.3: plain when the method is left out.
    codeChallengeMethod: request.codeChallenge !== undefined ? (request.codeChallengeMethod ?? 'plain') : null,
    scopes,
  });
  const grant = ctx.store.auth.codes.get(code);
  if (grant && onGrant) onGrant(grant);
  return back({ code });
}

/**
 * The token endpoint (§4.1.3, §6) for the client the route read (from its form or HTTP
 * Basic). Every platform here documents a form body. A code is redeemed once, for its
 * client and redirect uri, with the PKCE verifier when its consent had a challenge.
 */
export function token(ctx: RouteContext, p: AuthorizationCodePlatform, client: { id?: string; secret?: string }): RouteAnswer {
  const auth = ctx.store.auth;
  if (!String(ctx.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
    return p.refuse(400, 'invalid_request', 'The request body must be application/x-www-form-urlencoded');
  }
  if (!authenticated(auth, p.platform, client)) return p.refuse(401, 'invalid_client', 'Client authentication failed');
  const grantType = param(ctx.body, 'grant_type');
  if (grantType === 'authorization_code') {
    const code = param(ctx.body, 'code');
    const redirectUri = param(ctx.body, 'redirect_uri');
    if (!code || !redirectUri) return p.refuse(400, 'invalid_request', `Missing required parameter: ${code ? 'redirect_uri' : 'code'}`);
    const grant = auth.redeemCode(code, { clientId: client.id, redirectUri, codeVerifier: param(ctx.body, 'code_verifier') ?? null });
    if (typeof grant === 'string') return p.refuse(400, 'invalid_grant', grant);
    return answer(auth, p, p.tokensFor(auth, grant), grantType);
  }
  if (grantType === 'refresh_token') {
    const refreshToken = param(ctx.body, 'refresh_token');
    if (!refreshToken) return p.refuse(400, 'invalid_request', 'Missing required parameter: refresh_token');
    const pair = auth.refresh(refreshToken, { clientId: client.id, ...p.refresh });
    if (typeof pair === 'string') return p.refuse(400, 'invalid_grant', pair);
    return answer(auth, p, pair, grantType);
  }
  return p.refuse(400, grantType ? 'unsupported_grant_type' : 'invalid_request', grantType ? `Unsupported grant_type: ${grantType}` : 'Missing required parameter: grant_type');
}

/** POST `url`: the token endpoint (see token) for the client `client` reads from the request. */
export function tokenRoute(url: string, p: AuthorizationCodePlatform, client: (ctx: RouteContext) => { id?: string; secret?: string }): PlatformRoute {
  return { method: 'POST', url, operation: 'token', auth: 'none', handle: (ctx) => token(ctx, p, client(ctx)) };
}

/** The client named in a form body: its id (client_id, TikTok's client_key) and client_secret. */
export function formClient(body: unknown, idParam = 'client_id'): { id?: string; secret?: string } {
  return { id: param(body, idParam), secret: param(body, 'client_secret') };
}

function answer(auth: SandboxAuthority, p: AuthorizationCodePlatform, pair: TokenPair, grantType: 'authorization_code' | 'refresh_token'): RouteAnswer {
  const checked = auth.check(pair.accessToken);
  if (!checked.ok) throw new Error('a token just issued does not resolve');
  return p.tokenAnswer(pair, checked.identity, grantType);
}

/** The scopes of the request's access token, from its header or access_token parameter (identity endpoints check theirs). */
export function grantedScopes({ store, headers, query }: RouteContext): string[] {
  const header = String(headers.authorization ?? '');
  const checked = store.auth.check(header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : (query.access_token ?? ''));
  return checked.ok ? checked.token.scopes : [];
}

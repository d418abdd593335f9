import type { RouteAnswer, RouteContext } from '../../dialect';
import type { SandboxAuthority, SandboxIdentity, TokenPair } from '../authority';
import type { SandboxSignIn } from '../sign-in';
import { followerCount } from '../../dialects/metrics-growth';
import { consentingUser, issuedToAnotherClient, missingParam, oauthError, param, redirectBack, redeemedCode } from './oauth-routes';

/**
 * X's OAuth 2.0 Authorization Code Flow with PKCE, as X documents it ("OAuth 2.0
 * Authorization Code Flow with PKCE", https://docs.x.com/fundamentals/authentication/oauth-2-0/authorization-code
 * and .../oauth-2-0/user-access-token): consent at x.com/i/oauth2/authorize (PKCE and state
 * required), token and revocation on api.x.com/2/oauth2/* with the confidential client's
 * HTTP Basic credentials, access tokens valid two hours, a refresh token only with
 * offline.access, rotated at every refresh (the old one stops working). The identity is
 * GET /2/users/me ("User lookup", https://docs.x.com/x-api/users/lookup/introduction).
 */

const ACCESS_TTL_SECONDS = 2 * 3600;

/** X's OAuth 2.0 scopes (the authorization-code page's scope table). */
const SCOPES = new Set([
  'tweet.read', 'tweet.write', 'tweet.moderate.write', 'users.email', 'users.read', 'follows.read', 'follows.write', 'offline.access', 'space.read',
  'mute.read', 'mute.write', 'like.read', 'like.write', 'list.read', 'list.write', 'block.read', 'block.write', 'bookmark.read', 'bookmark.write',
  'dm.read', 'dm.write', 'media.write',
]);

/** X's token endpoint texts (its answers to a bad code or refresh token, and to a missing Basic header). */
const BAD_CODE = 'Value passed for the authorization code was invalid.';
const BAD_TOKEN = 'Value passed for the token was invalid.';
const NO_CLIENT = 'Missing valid authorization header';

function issueTokens(auth: SandboxAuthority, identity: SandboxIdentity, clientId: string | null, scopes: string[]): TokenPair {
  // X documents no refresh token lifetime: it lasts until used (rotation) or revoked; only offline.access gives one.
  return auth.issue(identity.key, { clientId, scopes, accessTtlSeconds: ACCESS_TTL_SECONDS, refreshTtlSeconds: scopes.includes('offline.access') ? null : undefined });
}

/** The confidential client of an `Authorization: Basic base64(client_id:client_secret)` header. */
function basicClient({ headers }: RouteContext): { clientId: string; clientSecret: string } | null {
  const match = /^Basic\s+(\S+)$/i.exec(String(headers.authorization ?? ''));
  const [clientId, ...secret] = match ? Buffer.from(match[1], 'base64').toString('utf8').split(':') : [];
  const clientSecret = secret.join(':');
  return clientId && clientSecret ? { clientId, clientSecret } : null;
}

function tokenAnswer(pair: TokenPair): RouteAnswer {
  return {
    body: {
      token_type: 'bearer',
      expires_in: pair.expiresIn,
      access_token: pair.accessToken,
      scope: pair.scopes.join(' '),
      ...(pair.refreshToken ? { refresh_token: pair.refreshToken } : {}),
    },
  };
}

const missing = (name: string): RouteAnswer => oauthError(400, 'invalid_request', `Missing required parameter [${name}].`);

export const xSignIn: SandboxSignIn = {
  // "offline.access: App can request refresh token" (the authorization-code page's scope table).
  consentExtras: ['offline.access'],
  platform: 'x',
  // X user ids are numeric strings.
  newAccountId: (auth) => String(1_600_000_000_000_000_000n + BigInt(auth.nextSeq())),
  issueTokens,
  routes: [
    {
      // The consent page: the sandbox consents at once as `sandbox_user` (an identity key) or the default user; sandbox_deny=1 declines.
      method: 'GET',
      url: '/i/oauth2/authorize',
      operation: 'authorize',
      auth: 'none',
      handle: (ctx) => {
        const { query, store } = ctx;
        // Without every required parameter X shows its error page: nothing goes back to the app.
        const absent = missingParam(query, ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method']);
        if (absent) return missing(absent);
        if (!URL.canParse(query.redirect_uri)) return oauthError(400, 'invalid_request', 'redirect_uri must be an absolute URI.');
        const back = (params: Record<string, string>) => redirectBack(query.redirect_uri, params, query.state);
        if (query.response_type !== 'code') return back({ error: 'unsupported_response_type', error_description: 'response_type must be code.' });
        if (!['S256', 'plain'].includes(query.code_challenge_method)) return back({ error: 'invalid_request', error_description: 'code_challenge_method must be S256 or plain.' });
        const scopes = query.scope.split(/\s+/).filter(Boolean);
        const unknown = scopes.find((scope) => !SCOPES.has(scope));
        if (unknown) return back({ error: 'invalid_scope', error_description: `Unknown scope: ${unknown}` });
        if (query.sandbox_deny === '1') return back({ error: 'access_denied', error_description: 'The user denied the request.' });
        const user = consentingUser(ctx, 'x');
        if (!user) return oauthError(400, 'invalid_request', `the sandbox has no x user ${query.sandbox_user}`);
        const code = store.auth.grantCode({
          identityKey: user.key,
          clientId: query.client_id,
          redirectUri: query.redirect_uri,
          codeChallenge: query.code_challenge,
          codeChallengeMethod: query.code_challenge_method,
          scopes,
        });
        return back({ code });
      },
    },
    {
      method: 'POST',
      url: '/2/oauth2/token',
      operation: 'sign_in',
      auth: 'none',
      handle: (ctx) => {
        const { store, body } = ctx;
        const client = basicClient(ctx);
        if (!client) return oauthError(401, 'unauthorized_client', NO_CLIENT);
        const clientId = param(body, 'client_id');
        if (clientId !== undefined && clientId !== client.clientId) return oauthError(401, 'unauthorized_client', 'client_id does not match the authorization header');
        const grantType = param(body, 'grant_type');
        if (grantType === 'authorization_code') {
          const absent = missingParam(body, ['code', 'redirect_uri', 'code_verifier']);
          if (absent) return missing(absent);
          const redeemed = redeemedCode(store.auth, param(body, 'code') as string, {
            clientId: client.clientId,
            redirectUri: param(body, 'redirect_uri') as string,
            codeVerifier: param(body, 'code_verifier') as string,
          });
          if (!redeemed) return oauthError(400, 'invalid_request', BAD_CODE);
          return tokenAnswer(issueTokens(store.auth, redeemed.identity, client.clientId, redeemed.grant.scopes));
        }
        if (grantType === 'refresh_token') {
          const refreshToken = param(body, 'refresh_token');
          if (!refreshToken) return missing('refresh_token');
          const pair = store.auth.refresh(refreshToken, { clientId: client.clientId, rotate: true, accessTtlSeconds: ACCESS_TTL_SECONDS, refreshTtlSeconds: null });
          return typeof pair === 'string' ? oauthError(400, 'invalid_request', BAD_TOKEN) : tokenAnswer(pair);
        }
        return oauthError(400, 'unsupported_grant_type', `grant_type must be authorization_code or refresh_token`);
      },
    },
    {
      method: 'POST',
      url: '/2/oauth2/revoke',
      operation: 'revoke',
      auth: 'none',
      handle: (ctx) => {
        const client = basicClient(ctx);
        if (!client) return oauthError(401, 'unauthorized_client', NO_CLIENT);
        const token = param(ctx.body, 'token');
        if (!token) return missing('token');
        if (issuedToAnotherClient(ctx.store.auth, token, client.clientId)) return oauthError(400, 'invalid_request', BAD_TOKEN);
        // An unknown or already revoked token is already gone (RFC 7009 §2.2).
        ctx.store.auth.revoke(token);
        return { body: { revoked: true } };
      },
    },
    {
      method: 'GET',
      url: '/2/users/me',
      // Asked with user.fields=public_metrics it is the account's metrics reading (faults name it 'metrics').
      operation: ({ query }) => (wantsPublicMetrics(query) ? 'metrics' : 'identify'),
      handle: ({ identity, query, store }) => {
        const user = identity as SandboxIdentity;
        // user.fields=public_metrics: followers_count, following_count, tweet_count, listed_count
        // ("Get my User", https://docs.x.com/x-api/users/get-my-user).
        const public_metrics = { followers_count: followerCount(store, user), following_count: 42, tweet_count: store.postsOf('x', user.key).length, listed_count: 1 };
        return { body: { data: { id: user.platformAccountId, name: user.displayName, username: user.handle, ...(wantsPublicMetrics(query) ? { public_metrics } : {}) } } };
      },
    },
  ],
};

function wantsPublicMetrics(query: Record<string, string>): boolean {
  return (query['user.fields'] ?? '').split(',').includes('public_metrics');
}

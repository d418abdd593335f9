import { randomUUID } from 'node:crypto';
import { PlatformRefusal, RouteAnswer } from '../../dialect';
import type { SandboxAuthority, SandboxIdentity } from '../authority';
import type { SandboxSignIn } from '../sign-in';
import type { SandboxStore } from '../../store';
import { followerCount } from '../../dialects/metrics-growth';
import { authenticated, AuthorizationCodePlatform, authorizeRoute, formClient, grantedScopes, tokenRoute } from './authorization-code';
import { issuedToAnotherClient, param } from './oauth-routes';

/**
 * The lifetimes of "Manage OAuth Access Tokens" (its token lifetimes table, November 2026:
 * https://developers.tiktok.com/docs/zh-Hans/oauth-user-access-token-management) and of
 * "Refresh a User Access Token" (https://developers.tiktok.com/docs/en/oauth-refresh-a-user-access-token):
 * 2 hours and 180 days (the older page said 24 hours and 365 days).
 */
const ACCESS_TTL_SECONDS = 2 * 3600;
const REFRESH_TTL_SECONDS = 180 * 24 * 3600;

/** "Scopes Overview" (https://developers.tiktok.com/doc/scopes-overview), the Login Kit and Content Posting ones. */
const SCOPES = ['user.info.basic', 'user.info.profile', 'user.info.stats', 'video.list', 'video.publish', 'video.upload'];

/** Each user/info field and the scope that gives it ("Get User Info", https://developers.tiktok.com/doc/tiktok-api-v2-get-user-info). */
const USER_FIELDS: Record<string, { scope: string; value: (user: SandboxIdentity, store: SandboxStore) => unknown }> = {
  open_id: { scope: 'user.info.basic', value: (user) => user.platformAccountId },
  union_id: { scope: 'user.info.basic', value: (user) => `union-${user.platformAccountId}` },
  avatar_url: { scope: 'user.info.basic', value: (user) => `https://p16-sign.tiktokcdn-us.com/sandbox/${user.handle}.jpeg` },
  display_name: { scope: 'user.info.basic', value: (user) => user.displayName },
  bio_description: { scope: 'user.info.profile', value: () => '' },
  profile_deep_link: { scope: 'user.info.profile', value: (user) => `https://vm.tiktok.com/${user.handle}` },
  is_verified: { scope: 'user.info.profile', value: () => false },
  username: { scope: 'user.info.profile', value: (user) => user.handle },
  follower_count: { scope: 'user.info.stats', value: (user, store) => followerCount(store, user) },
  following_count: { scope: 'user.info.stats', value: () => 0 },
  likes_count: { scope: 'user.info.stats', value: () => 0 },
  video_count: { scope: 'user.info.stats', value: () => 0 },
};

function issue(auth: SandboxAuthority, identityKey: string, clientId: string | null, scopes: string[]) {
  return auth.issue(identityKey, { clientId, scopes, accessTtlSeconds: ACCESS_TTL_SECONDS, refreshTtlSeconds: REFRESH_TTL_SECONDS });
}

/** {error, error_description, log_id} ("Error Handling", https://developers.tiktok.com/doc/oauth-error-handling). */
function oauthError(status: number, error: string, description: string): RouteAnswer {
  return { status, body: { error, error_description: description, log_id: `sandbox${Date.now()}` } };
}

/** The app's client_key and client_secret, which every TikTok OAuth call carries in its form. */
const client = (body: unknown) => formClient(body, 'client_key');

/**
 * TikTok Login Kit for Web (https://developers.tiktok.com/doc/login-kit-web), under /tiktok
 * standing for www.tiktok.com and open.tiktokapis.com: GET /v2/auth/authorize/ (client_key,
 * comma-separated scope, response_type=code, redirect_uri, state; no PKCE on the web),
 * POST /v2/oauth/token/ ("Get a User Access Token" and "Refresh a User Access Token": a
 * refresh answers a new refresh token and spends the one sent), POST /v2/oauth/revoke/
 * ("Revoke a User Access Token": ends the grant, answers an empty body), and GET
 * /v2/user/info/ answering the fields the token's scopes give.
 */
const tiktok: AuthorizationCodePlatform = {
  platform: 'tiktok',
  refuse: oauthError,
  scopes: SCOPES,
  scopeSeparator: ',',
  tokensFor: (auth, grant) => issue(auth, grant.identityKey, grant.clientId, grant.scopes),
  refresh: { rotate: true, accessTtlSeconds: ACCESS_TTL_SECONDS, refreshTtlSeconds: REFRESH_TTL_SECONDS },
  tokenAnswer: (pair, identity) => ({
    body: {
      access_token: pair.accessToken,
      expires_in: pair.expiresIn,
      open_id: identity.platformAccountId,
      refresh_expires_in: pair.refreshExpiresIn,
      refresh_token: pair.refreshToken,
      scope: pair.scopes.join(','),
      token_type: 'Bearer',
    },
  }),
};

export const tiktokSignIn: SandboxSignIn = {
  platform: 'tiktok',
  // open_id as TikTok's example shows it: a UUID.
  newAccountId: () => randomUUID(),
  // follower_count, a field of Get User Info beyond the endpoint's own scope (user.info.stats), for the metrics reading.
  consentExtras: ['user.info.stats'],
  issueTokens: (auth, identity, clientId, scopes) => issue(auth, identity.key, clientId, scopes),
  routes: [
    authorizeRoute('/v2/auth/authorize/', tiktok, {
      clientIdParam: 'client_key',
      // state is required on the web ("Login Kit for Web", authorization parameters).
      precheck: ({ query }) => (query.state ? undefined : oauthError(400, 'invalid_request', 'Missing required parameter: state')),
    }),
    tokenRoute('/v2/oauth/token/', tiktok, (ctx) => client(ctx.body)),
    {
      method: 'POST',
      url: '/v2/oauth/revoke/',
      operation: 'revoke',
      auth: 'none',
      handle: ({ store, body }) => {
        const app = client(body);
        if (!authenticated(store.auth, 'tiktok', app)) return oauthError(401, 'invalid_client', 'Client authentication failed');
        const revoked = param(body, 'token');
        if (!revoked) return oauthError(400, 'invalid_request', 'Missing required parameter: token');
        if (issuedToAnotherClient(store.auth, revoked, app.id)) return oauthError(400, 'invalid_request', 'The token was issued to another client');
        // An unknown or already revoked token has nothing left to end (RFC 7009 §2.2).
        store.auth.revoke(revoked);
        return {};
      },
    },
    {
      method: 'GET',
      url: '/v2/user/info/',
      // Asked for follower_count it is the account's metrics reading (faults name it 'metrics').
      operation: ({ query }) => ((query.fields ?? '').split(',').includes('follower_count') ? 'metrics' : 'identity'),
      handle: (ctx) => {
        const fields = (ctx.query.fields ?? '').split(',').filter(Boolean);
        if (fields.length === 0) throw new PlatformRefusal(400, 'invalid_params', 'fields is required');
        const unknown = fields.find((name) => !(name in USER_FIELDS));
        if (unknown) throw new PlatformRefusal(400, 'invalid_params', `Unknown field: ${unknown}`);
        const scopes = grantedScopes(ctx);
        if (!scopes.includes('user.info.basic')) throw new PlatformRefusal(401, 'scope_not_authorized', 'The user did not authorize the scope required for completing this request.');
        // A field whose scope the user did not grant is left out of the answer.
        const user = Object.fromEntries(fields.filter((name) => scopes.includes(USER_FIELDS[name].scope)).map((name) => [name, USER_FIELDS[name].value(ctx.identity!, ctx.store)]));
        return { body: { data: { user }, error: { code: 'ok', message: '', log_id: `sandbox${Date.now()}` } } };
      },
    },
  ],
};

import { PlatformRefusal, PlatformRoute, required } from '../../dialect';
import type { IssuedToken, SandboxAuthority } from '../authority';
import type { SandboxSignIn } from '../sign-in';
import { checkApp, checkedToken, consentRoute, graphFields, issueLongLived, longLivedAgeSeconds, redeemCode, tokenAnswer } from './meta';

/**
 * Threads sign-in as the sandbox plays it, from Meta's Threads pages:
 * - "Get Access Tokens" (https://developers.facebook.com/docs/threads/get-started/get-access-tokens-and-permissions):
 *   the Authorization Window (client_id, redirect_uri, scope, response_type=code required; state
 *   optional), then POST /oauth/access_token (client_id, client_secret, code,
 *   grant_type=authorization_code, redirect_uri) answering {access_token, user_id}; short-lived tokens
 *   are valid for one hour;
 * - "Long-Lived Access Tokens" (https://developers.facebook.com/docs/threads/get-started/long-lived-tokens):
 *   GET /access_token?grant_type=th_exchange_token&client_secret&access_token (60 days), and
 *   GET /refresh_access_token?grant_type=th_refresh_token&access_token for a long-lived token at
 *   least 24 hours old and unexpired (60 days again);
 * - "User Profiles" (https://developers.facebook.com/docs/threads/threads-profiles): GET /v1.0/me?fields=...
 */

const SHORT_LIVED_SECONDS = 3600;
const REFRESHABLE_AFTER_SECONDS = 86_400;

function requireGrantType(value: unknown, expected: string): void {
  if (required(value, 'grant_type', '100') !== expected) throw new PlatformRefusal(400, '100', `grant_type must be ${expected}`);
}

/**
 * GET `url` with grant_type=`grantType` and a token: `check` refuses the token the endpoint
 * does not take; the answer is a new long-lived token (60 days) for the same user and app.
 */
function longLivedRoute(url: string, grantType: string, check: (auth: SandboxAuthority, token: IssuedToken, query: Record<string, string>) => void): PlatformRoute {
  return {
    method: 'GET',
    url,
    operation: 'token',
    auth: 'none',
    handle: ({ store, query }) => {
      requireGrantType(query.grant_type, grantType);
      const { identity, token } = checkedToken(store.auth, query.access_token);
      check(store.auth, token, query);
      return tokenAnswer(issueLongLived(store.auth, identity.key, token.clientId, token.scopes));
    },
  };
}

export const threadsSignIn: SandboxSignIn = {
  platform: 'threads',
  newAccountId: (auth) => String(25_000_000_000_000_000n + BigInt(auth.nextSeq())),
  /** A completed sign-in ends with the long-lived token. */
  issueTokens: (auth, identity, clientId, scopes) => issueLongLived(auth, identity.key, clientId, scopes),
  routes: [
    consentRoute('/oauth/authorize', 'threads', ['scope', 'response_type']),
    {
      method: 'POST',
      url: '/oauth/access_token',
      operation: 'token',
      auth: 'none',
      handle: ({ store, body }) => {
        const params = (body ?? {}) as Record<string, unknown>;
        requireGrantType(params.grant_type, 'authorization_code');
        const grant = redeemCode(store.auth, 'threads', params);
        const pair = store.auth.issue(grant.identityKey, { clientId: grant.clientId, scopes: grant.scopes, accessTtlSeconds: SHORT_LIVED_SECONDS });
        return { body: { access_token: pair.accessToken, user_id: store.auth.identity(grant.identityKey)?.platformAccountId } };
      },
    },
    longLivedRoute('/access_token', 'th_exchange_token', (auth, token, query) => {
      // No client_id here: the secret must be that of the app the token was issued to.
      checkApp(auth, 'threads', token.clientId, required(query.client_secret, 'client_secret', '100'));
      if (longLivedAgeSeconds(auth, token) !== null) throw new PlatformRefusal(400, '100', 'Only a short-lived token can be exchanged; refresh a long-lived one');
    }),
    longLivedRoute('/refresh_access_token', 'th_refresh_token', (auth, token) => {
      const age = longLivedAgeSeconds(auth, token);
      if (age === null) throw new PlatformRefusal(400, '100', 'Only a long-lived token can be refreshed');
      if (age < REFRESHABLE_AFTER_SECONDS) throw new PlatformRefusal(400, '100', 'A long-lived token can be refreshed once it is at least 24 hours old');
    }),
    {
      method: 'GET',
      url: '/:version/me',
      operation: 'identity',
      handle: ({ identity, query }) => ({
        body: graphFields(
          { id: identity?.platformAccountId, username: identity?.handle, name: identity?.displayName, threads_profile_picture_url: null, threads_biography: null },
          'ThreadsUser',
          query.fields,
          'id',
        ),
      }),
    },
  ],
};

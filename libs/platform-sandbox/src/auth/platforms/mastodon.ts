import { randomBytes } from 'node:crypto';
import { field, PlatformRefusal, RouteAnswer } from '../../dialect';
import type { SandboxStore } from '../../store';
import type { SandboxSignIn } from '../sign-in';

// Doorkeeper's error descriptions, as Mastodon answers them (https://docs.joinmastodon.org/methods/oauth/).
const INVALID_CLIENT = 'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.';
const INVALID_GRANT =
  'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.';
const NOT_YOUR_TOKEN = 'You are not authorized to revoke this token';

/** An OAuth error body: {"error": code, "error_description": text}. */
function oauthError(status: number, error: string, description: string): RouteAnswer {
  return { status, body: { error, error_description: description } };
}

/** The consent step's answer: back to the app's redirect_uri with the code (or the error), and the state it sent. */
function redirectBack(redirectUri: string, params: Record<string, string>, state: string | undefined): RouteAnswer {
  const location = new URL(redirectUri);
  for (const [name, value] of Object.entries({ ...params, ...(state !== undefined ? { state } : {}) })) location.searchParams.set(name, value);
  return { status: 302, headers: { location: location.toString() } };
}

function param(body: unknown, name: string): string | undefined {
  const value = field(body, name);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A registered app of this instance whose secret matches (when one is given to check). */
function registeredApp(store: SandboxStore, clientId: string | undefined, clientSecret?: string) {
  const app = clientId === undefined ? undefined : store.auth.clients.get(clientId);
  if (!app || app.platform !== 'mastodon') return undefined;
  return clientSecret === undefined || app.clientSecret === clientSecret ? app : undefined;
}

/** redirect_uris: a string (one per line) or an array of strings. */
function redirectUrisOf(value: unknown): string[] {
  const list = typeof value === 'string' ? value.split('\n') : Array.isArray(value) ? value : [];
  return list.filter((uri): uri is string => typeof uri === 'string').map((uri) => uri.trim()).filter(Boolean);
}

/**
 * Mastodon sign-in as an instance plays it (https://docs.joinmastodon.org/methods/apps/ and
 * .../methods/oauth/): apps registered per instance, authorization code with optional PKCE
 * (S256 only), access tokens that never expire and have no refresh token, revocation.
 */
export const mastodonSignIn: SandboxSignIn = {
  platform: 'mastodon',
  // Mastodon account ids are snowflake-like numeric strings.
  newAccountId: (auth) => String(109_000_000_000_000_000n + BigInt(auth.nextSeq())),
  issueTokens: (auth, identity, clientId, scopes) => auth.issue(identity.key, { clientId, scopes, accessTtlSeconds: null }),
  routes: [
    {
      method: 'POST',
      url: '/api/v1/apps',
      operation: 'register_app',
      auth: 'none',
      handle: ({ store, body }) => {
        const name = param(body, 'client_name');
        const redirectUris = redirectUrisOf(field(body, 'redirect_uris'));
        if (!name) throw new PlatformRefusal(422, undefined, "Validation failed: Name can't be blank");
        if (redirectUris.length === 0) throw new PlatformRefusal(422, undefined, "Validation failed: Redirect URI can't be blank");
        if (!redirectUris.every((uri) => URL.canParse(uri))) throw new PlatformRefusal(422, undefined, 'Validation failed: Redirect URI must be an absolute URI.');
        const app = { clientId: randomBytes(32).toString('base64url'), clientSecret: randomBytes(32).toString('base64url'), redirectUris, platform: 'mastodon' as const };
        store.auth.clients.set(app.clientId, app);
        return {
          body: {
            id: String(store.nextSeq()),
            name,
            website: param(body, 'website') ?? null,
            scopes: (param(body, 'scopes') ?? 'read').split(/\s+/),
            redirect_uri: redirectUris.join('\n'),
            redirect_uris: redirectUris,
            client_id: app.clientId,
            client_secret: app.clientSecret,
            client_secret_expires_at: 0,
          },
        };
      },
    },
    {
      // The consent page. The sandbox consents at once as `sandbox_user` (an identity key) or the default user; sandbox_deny=1 declines.
      method: 'GET',
      url: '/oauth/authorize',
      operation: 'authorize',
      auth: 'none',
      handle: ({ store, query }) => {
        const app = registeredApp(store, query.client_id);
        // Without a known client and one of its redirect uris there is nowhere safe to send the user back: the error shows here.
        if (!app) return oauthError(401, 'invalid_client', INVALID_CLIENT);
        if (!query.redirect_uri || !app.redirectUris.includes(query.redirect_uri)) {
          return oauthError(400, 'invalid_redirect_uri', "The requested redirect uri is malformed or doesn't match client redirect URI.");
        }
        const back = (params: Record<string, string>) => redirectBack(query.redirect_uri, params, query.state);
        if (query.response_type !== 'code') return back({ error: 'unsupported_response_type', error_description: 'The authorization server does not support this response type.' });
        if (query.code_challenge !== undefined && query.code_challenge_method !== 'S256') {
          return back({ error: 'invalid_request', error_description: 'The code challenge method must be S256.' });
        }
        if (query.sandbox_deny === '1') return back({ error: 'access_denied', error_description: 'The resource owner or authorization server denied the request.' });
        const user = query.sandbox_user ? store.auth.identity(query.sandbox_user) : store.auth.defaultUser('mastodon');
        if (user?.platform !== 'mastodon') return oauthError(400, 'invalid_request', `the sandbox has no mastodon user ${query.sandbox_user}`);
        const code = store.auth.grantCode({
          identityKey: user.key,
          clientId: app.clientId,
          redirectUri: query.redirect_uri,
          codeChallenge: query.code_challenge ?? null,
          codeChallengeMethod: query.code_challenge !== undefined ? 'S256' : null,
          // Space separated ("+" in a query); read when absent.
          scopes: (query.scope ?? 'read').split(/\s+/).filter(Boolean),
        });
        return back({ code });
      },
    },
    {
      method: 'POST',
      url: '/oauth/token',
      operation: 'sign_in',
      auth: 'none',
      handle: ({ store, body }) => {
        if (param(body, 'grant_type') !== 'authorization_code') {
          return oauthError(400, 'unsupported_grant_type', 'The authorization grant type is not supported by the authorization server.');
        }
        const app = registeredApp(store, param(body, 'client_id'), param(body, 'client_secret') ?? '');
        if (!app) return oauthError(401, 'invalid_client', INVALID_CLIENT);
        const code = param(body, 'code');
        const redirectUri = param(body, 'redirect_uri');
        if (!code || !redirectUri) {
          return oauthError(400, 'invalid_request', 'The request is missing a required parameter, includes an unsupported parameter value, or is otherwise malformed.');
        }
        const grant = store.auth.redeemCode(code, { clientId: app.clientId, redirectUri, codeVerifier: param(body, 'code_verifier') ?? null });
        const identity = typeof grant === 'string' ? undefined : store.auth.identity(grant.identityKey);
        if (typeof grant === 'string' || !identity) return oauthError(400, 'invalid_grant', INVALID_GRANT);
        const pair = mastodonSignIn.issueTokens(store.auth, identity, app.clientId, grant.scopes);
        return { body: { access_token: pair.accessToken, token_type: 'Bearer', scope: pair.scopes.join(' '), created_at: Math.floor(store.auth.now() / 1000) } };
      },
    },
    {
      method: 'POST',
      url: '/oauth/revoke',
      operation: 'revoke',
      auth: 'none',
      handle: ({ store, body }) => {
        const app = registeredApp(store, param(body, 'client_id'), param(body, 'client_secret') ?? '');
        const token = param(body, 'token');
        const issued = token === undefined ? undefined : store.auth.tokens.get(token);
        if (!app || !token || (issued && issued.clientId !== app.clientId)) return oauthError(403, 'unauthorized_client', NOT_YOUR_TOKEN);
        // Only this token ends (the user's other sign-ins with the app stay); an unknown one is already gone: revoking is idempotent.
        if (issued) issued.revoked = true;
        return { body: {} };
      },
    },
  ],
};

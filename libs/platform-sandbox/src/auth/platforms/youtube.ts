import { randomBytes } from 'node:crypto';
import { PlatformRefusal } from '../../dialect';
import type { AuthorizationCode, SandboxAuthority } from '../authority';
import type { SandboxSignIn } from '../sign-in';
import { AuthorizationCodePlatform, authorizeRoute, formClient, grantedScopes, tokenRoute } from './authorization-code';
import { oauthError, param } from './oauth-routes';
import { uploadsPlaylistOf } from '../../dialects/youtube';
import { followerCount } from '../../dialects/metrics-growth';

const SCOPE_PREFIX = 'https://www.googleapis.com/auth/';
/** The YouTube Data API scopes ("Identify access scopes", https://developers.google.com/youtube/v3/guides/auth/server-side-web-apps). */
const SCOPES = ['youtube', 'youtube.readonly', 'youtube.upload', 'youtube.force-ssl', 'youtube.channel-memberships.creator', 'youtubepartner', 'youtubepartner-channel-audit'].map(
  (scope) => SCOPE_PREFIX + scope,
);
/** Any of these lets channels.list read the own channel (its Authorization section, https://developers.google.com/youtube/v3/docs/channels/list). */
const CHANNEL_READ_SCOPES = ['youtube', 'youtube.readonly', 'youtube.force-ssl', 'youtubepartner'].map((scope) => SCOPE_PREFIX + scope);

/** Access tokens live an hour; refresh tokens do not expire (until revoked) and are not rotated. */
const ACCESS_TTL_SECONDS = 3600;

/** Codes whose consent asked for access_type=offline: only those give a refresh token. */
const offlineGrants = new WeakSet<AuthorizationCode>();

function issue(auth: SandboxAuthority, identityKey: string, clientId: string | null, scopes: string[], offline: boolean) {
  return auth.issue(identityKey, { clientId, scopes, accessTtlSeconds: ACCESS_TTL_SECONDS, refreshTtlSeconds: offline ? null : undefined });
}

/**
 * Google OAuth 2.0 for web server apps as "Using OAuth 2.0 for Web Server Applications"
 * documents it (https://developers.google.com/youtube/v3/guides/auth/server-side-web-apps),
 * under /youtube standing for accounts.google.com and oauth2.googleapis.com:
 * GET /o/oauth2/v2/auth (consent; PKCE S256 or plain; a refresh token only with
 * access_type=offline), POST /token (code and refresh_token grants, client_id and
 * client_secret in the form; a refresh answers no refresh_token), POST /revoke (token;
 * 400 invalid_token when it is already expired or revoked). Errors are {error, error_description}.
 * And the channel behind a token: GET /youtube/v3/channels?part=snippet&mine=true.
 */
const google: AuthorizationCodePlatform = {
  platform: 'youtube',
  refuse: oauthError,
  scopes: SCOPES,
  scopeSeparator: ' ',
  tokensFor: (auth, grant) => issue(auth, grant.identityKey, grant.clientId, grant.scopes, offlineGrants.has(grant)),
  refresh: { rotate: false, accessTtlSeconds: ACCESS_TTL_SECONDS, refreshTtlSeconds: null },
  tokenAnswer: (pair, _identity, grantType) => ({
    body: {
      access_token: pair.accessToken,
      expires_in: pair.expiresIn,
      token_type: 'Bearer',
      scope: pair.scopes.join(' '),
      ...(grantType === 'authorization_code' && pair.refreshToken ? { refresh_token: pair.refreshToken } : {}),
    },
  }),
};

export const youtubeSignIn: SandboxSignIn = {
  platform: 'youtube',
  // Channel ids: "UC" and 22 base64url characters.
  newAccountId: () => `UC${randomBytes(17).toString('base64url').slice(0, 22)}`,
  // A provisioned account signed in offline (access_type=offline: a refresh token).
  issueTokens: (auth, identity, clientId, scopes) => issue(auth, identity.key, clientId, scopes, true),
  routes: [
    authorizeRoute('/o/oauth2/v2/auth', google, {
      pkce: true,
      precheck: ({ query }) => {
        const accessType = query.access_type ?? 'online';
        return accessType === 'online' || accessType === 'offline' ? undefined : oauthError(400, 'invalid_request', `Invalid access_type: ${accessType}`);
      },
      onGrant: ({ query }, grant) => {
        if (query.access_type === 'offline') offlineGrants.add(grant);
      },
    }),
    tokenRoute('/token', google, (ctx) => formClient(ctx.body)),
    {
      method: 'POST',
      url: '/revoke',
      operation: 'revoke',
      auth: 'none',
      handle: ({ store, body, query }) => {
        const revoked = param(body, 'token') ?? query.token;
        const issued = revoked === undefined ? undefined : store.auth.tokens.get(revoked);
        if (revoked === undefined || !issued || !store.auth.check(revoked, issued.kind).ok) return oauthError(400, 'invalid_token', 'Token expired or revoked');
        // Either token of the grant ends the whole grant.
        store.auth.revoke(revoked);
        return { body: {} };
      },
    },
    {
      method: 'GET',
      url: '/youtube/v3/channels',
      // Asked for part=statistics it is the account's metrics reading (faults name it 'metrics').
      operation: ({ query }) => ((query.part ?? '').split(',').includes('statistics') ? 'metrics' : 'identity'),
      handle: (ctx) => {
        if (!ctx.query.part) throw new PlatformRefusal(400, 'required', 'Required parameter: part');
        if (ctx.query.mine !== 'true') throw new PlatformRefusal(400, 'badRequest', 'the sandbox answers channels.list for mine=true only');
        if (!grantedScopes(ctx).some((scope) => CHANNEL_READ_SCOPES.includes(scope))) {
          throw new PlatformRefusal(403, 'insufficientPermissions', 'Request had insufficient authentication scopes.');
        }
        const channel = ctx.identity!;
        const snippet = {
          title: channel.displayName,
          description: '',
          customUrl: `@${channel.handle.toLowerCase()}`,
          publishedAt: '2020-01-01T00:00:00Z',
          localized: { title: channel.displayName, description: '' },
        };
        return {
          body: {
            kind: 'youtube#channelListResponse',
            pageInfo: { totalResults: 1, resultsPerPage: 5 },
            items: [
              {
                kind: 'youtube#channel',
                id: channel.platformAccountId,
                ...(ctx.query.part.split(',').includes('snippet') ? { snippet } : {}),
                // contentDetails.relatedPlaylists.uploads ("Channels", https://developers.google.com/youtube/v3/docs/channels): the uploads playlist.
                ...(ctx.query.part.split(',').includes('contentDetails') ? { contentDetails: { relatedPlaylists: { likes: '', uploads: uploadsPlaylistOf(channel.platformAccountId) } } } : {}),
                // statistics: viewCount, subscriberCount, hiddenSubscriberCount, videoCount, as strings ("Channels", https://developers.google.com/youtube/v3/docs/channels#statistics).
                ...(ctx.query.part.split(',').includes('statistics')
                  ? { statistics: { viewCount: '0', subscriberCount: String(followerCount(ctx.store, channel)), hiddenSubscriberCount: false, videoCount: String(ctx.store.postsOf('youtube', channel.key).length) } }
                  : {}),
              },
            ],
          },
        };
      },
    },
  ],
};

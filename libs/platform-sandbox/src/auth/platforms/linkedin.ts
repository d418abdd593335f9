import { PlatformRefusal, RouteAnswer, RouteContext } from '../../dialect';
import { linkedInUrn, requireVersionHeaders } from '../../dialects/linkedin';
import type { SandboxAuthority, SandboxIdentity, TokenPair } from '../authority';
import type { SandboxSignIn } from '../sign-in';
import { consentingUser, issuedToAnotherClient, missingParam, oauthError, param, redirectBack, redeemedCode } from './oauth-routes';

/**
 * LinkedIn sign-in as LinkedIn documents it:
 * - consent and code exchange: "Authorization Code Flow (3-legged OAuth)",
 *   https://learn.microsoft.com/en-us/linkedin/shared/authentication/authorization-code-flow
 *   (client id and secret in the form body, no PKCE: that is a separate flow for native apps);
 * - refresh: "Refresh Tokens with OAuth 2.0",
 *   https://learn.microsoft.com/en-us/linkedin/shared/authentication/programmatic-refresh-tokens
 *   (access tokens 60 days, refresh tokens 365 days from the first sign-in: a refresh gives
 *   a new access token and the same refresh token with what remains of its year);
 * - identity: "Sign In with LinkedIn using OpenID Connect", GET /v2/userinfo,
 *   https://learn.microsoft.com/en-us/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2;
 * - administered organizations: "Organization Access Control by Role", GET /rest/organizationAcls,
 *   https://learn.microsoft.com/en-us/linkedin/marketing/community-management/organizations/organization-access-control-by-role.
 * The sandbox plays an app approved for programmatic refresh tokens.
 */

const ACCESS_TTL_SECONDS = 60 * 86_400;
const REFRESH_TTL_SECONDS = 365 * 86_400;

/**
 * The permissions an app can hold for these products (Sign In with OpenID Connect, Share on LinkedIn, Community
 * Management, whose member analytics pages name r_member_postAnalytics and r_member_profileAnalytics:
 * https://learn.microsoft.com/en-us/linkedin/marketing/community-management/members/post-statistics,
 * https://learn.microsoft.com/en-us/linkedin/marketing/community-management/members/follower-statistics).
 */
const SCOPES = new Set([
  'openid', 'profile', 'email', 'w_member_social', 'r_member_social', 'w_organization_social', 'r_organization_social', 'r_organization_admin', 'rw_organization_admin',
  'r_member_postAnalytics', 'r_member_profileAnalytics',
]);

/** LinkedIn's answer to a code it will not exchange (the same text for every cause). */
const BAD_CODE = 'Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired. Or external member binding exists';

function issueTokens(auth: SandboxAuthority, identity: SandboxIdentity, clientId: string | null, scopes: string[]): TokenPair {
  return auth.issue(identity.key, { clientId, scopes, accessTtlSeconds: ACCESS_TTL_SECONDS, refreshTtlSeconds: REFRESH_TTL_SECONDS });
}

/** LinkedIn's token answer; scopes are comma separated. */
function tokenAnswer({ store }: RouteContext, pair: TokenPair): RouteAnswer {
  const refresh = pair.refreshToken === null ? undefined : store.auth.tokens.get(pair.refreshToken);
  const refreshExpiresIn = refresh?.expiresAtMs == null ? undefined : Math.floor((refresh.expiresAtMs - store.auth.now()) / 1000);
  return {
    body: {
      access_token: pair.accessToken,
      expires_in: pair.expiresIn,
      ...(refresh ? { refresh_token: refresh.token, refresh_token_expires_in: refreshExpiresIn } : {}),
      scope: pair.scopes.join(','),
      token_type: 'Bearer',
    },
  };
}

/** Every call past the consent step names the app with its id and secret in the form (the sandbox accepts any configured app). */
const CLIENT = ['client_id', 'client_secret'];

const missing = (name: string): RouteAnswer => oauthError(400, 'invalid_request', `A required parameter "${name}" is missing`);

/** The permission a call needs, refused as LinkedIn refuses it. */
function requireScope(ctx: RouteContext, anyOf: string[], resource: string): void {
  const checked = ctx.store.auth.check(String(ctx.headers.authorization ?? '').replace(/^Bearer\s+/i, ''));
  if (!checked.ok || !anyOf.some((scope) => checked.token.scopes.includes(scope))) {
    throw new PlatformRefusal(403, 'ACCESS_DENIED', `Not enough permissions to access: ${resource}`);
  }
}

/** The fields a projection asks of a decorated URN field: `organization~(localizedName,vanityName)`. */
function decoratedFields(projection: string | undefined, name: string): string[] | null {
  const match = new RegExp(`${name}~\\(([^)]*)\\)`).exec(projection ?? '');
  return match ? match[1].split(',').map((field) => field.trim()) : null;
}

export const linkedinSignIn: SandboxSignIn = {
  platform: 'linkedin',
  // Members are urn:li:person:<id> (the OpenID Connect `sub`), organizations urn:li:organization:<number>.
  newAccountId: (auth, kind) => (kind === 'organization' ? `urn:li:organization:${10_000_000 + auth.nextSeq()}` : `urn:li:person:sbx${(1_000_000 + auth.nextSeq()).toString(36)}`),
  issueTokens,
  routes: [
    {
      // The consent page: the sandbox consents at once as `sandbox_user` (an identity key) or the default user; sandbox_deny=1 declines.
      method: 'GET',
      url: '/oauth/v2/authorization',
      operation: 'authorize',
      auth: 'none',
      handle: (ctx) => {
        const { query, store } = ctx;
        const absent = missingParam(query, ['response_type', 'client_id', 'redirect_uri', 'scope']);
        if (absent) return missing(absent);
        if (!URL.canParse(query.redirect_uri)) return oauthError(400, 'invalid_redirect_uri', 'The redirect_uri does not match the registered value');
        const back = (params: Record<string, string>) => redirectBack(query.redirect_uri, params, query.state);
        if (query.response_type !== 'code') return back({ error: 'invalid_request', error_description: 'response_type must be code' });
        const scopes = query.scope.split(/[\s,]+/).filter(Boolean);
        const unknown = scopes.find((scope) => !SCOPES.has(scope));
        if (unknown) return back({ error: 'unauthorized_scope_error', error_description: `Scope "${unknown}" is not authorized for your application` });
        if (query.sandbox_deny === '1') return back({ error: 'user_cancelled_authorize', error_description: 'The user cancelled the authorization' });
        const user = consentingUser(ctx, 'linkedin');
        if (!user) return oauthError(400, 'invalid_request', `the sandbox has no linkedin member ${query.sandbox_user}`);
        const code = store.auth.grantCode({ identityKey: user.key, clientId: query.client_id, redirectUri: query.redirect_uri, codeChallenge: null, codeChallengeMethod: null, scopes });
        return back({ code });
      },
    },
    {
      method: 'POST',
      url: '/oauth/v2/accessToken',
      operation: 'sign_in',
      auth: 'none',
      handle: (ctx) => {
        const { store, body } = ctx;
        const grantType = param(body, 'grant_type');
        if (grantType === 'authorization_code') {
          const absent = missingParam(body, ['code', 'redirect_uri', ...CLIENT]);
          if (absent) return missing(absent);
          const clientId = param(body, 'client_id') as string;
          const redeemed = redeemedCode(store.auth, param(body, 'code') as string, { clientId, redirectUri: param(body, 'redirect_uri') as string, codeVerifier: null });
          if (!redeemed) return oauthError(400, 'invalid_request', BAD_CODE);
          return tokenAnswer(ctx, issueTokens(store.auth, redeemed.identity, clientId, redeemed.grant.scopes));
        }
        if (grantType === 'refresh_token') {
          const absent = missingParam(body, ['refresh_token', ...CLIENT]);
          if (absent) return missing(absent);
          const pair = store.auth.refresh(param(body, 'refresh_token') as string, {
            clientId: param(body, 'client_id') as string,
            rotate: false,
            accessTtlSeconds: ACCESS_TTL_SECONDS,
            refreshTtlSeconds: null,
          });
          return typeof pair === 'string' ? oauthError(400, 'invalid_grant', `The provided refresh token is invalid: ${pair}`) : tokenAnswer(ctx, pair);
        }
        return oauthError(400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
      },
    },
    {
      method: 'POST',
      url: '/oauth/v2/revoke',
      operation: 'revoke',
      auth: 'none',
      handle: ({ store, body }) => {
        const absent = missingParam(body, ['token', ...CLIENT]);
        if (absent) return missing(absent);
        const token = param(body, 'token') as string;
        if (issuedToAnotherClient(store.auth, token, param(body, 'client_id'))) return oauthError(400, 'invalid_request', 'The token was issued to another client');
        // An unknown or already revoked token is already gone (RFC 7009 §2.2).
        store.auth.revoke(token);
        return { body: '' };
      },
    },
    {
      method: 'GET',
      url: '/v2/userinfo',
      operation: 'identify',
      handle: (ctx) => {
        requireScope(ctx, ['openid'], 'userinfo.GET.NO_VERSION');
        const member = ctx.identity as SandboxIdentity;
        const [givenName, ...familyName] = member.displayName.split(' ');
        return {
          body: {
            sub: linkedInUrn(member).replace(/^urn:li:person:/, ''),
            name: member.displayName,
            given_name: givenName,
            family_name: familyName.join(' '),
            picture: `https://media.licdn.com/dms/image/sandbox/${member.key}`,
            locale: { country: 'US', language: 'en' },
          },
        };
      },
    },
    {
      // A member's roles: ?q=roleAssignee[&role=...][&state=...][&projection=(elements*(...,organization~(localizedName,vanityName)))].
      method: 'GET',
      url: '/rest/organizationAcls',
      operation: 'roles',
      handle: (ctx) => {
        requireVersionHeaders(ctx);
        requireScope(ctx, ['r_organization_admin', 'rw_organization_admin'], 'organizationAcls.FINDER-roleAssignee');
        const { query, store } = ctx;
        if (query.q !== 'roleAssignee') throw new PlatformRefusal(400, 'ILLEGAL_ARGUMENT', 'q must be roleAssignee or organization');
        const member = ctx.identity as SandboxIdentity;
        // The sandbox's administrators: the member who manages an organization identity holds its ADMINISTRATOR role.
        const wanted = (query.role ?? 'ADMINISTRATOR') === 'ADMINISTRATOR' && (query.state ?? 'APPROVED') === 'APPROVED';
        const organizations = wanted ? store.auth.managedBy(member.key).filter((managed) => managed.kind === 'organization') : [];
        const fields = decoratedFields(query.projection, 'organization');
        const elements = organizations.map((organization) => {
          const details: Record<string, string> = { id: linkedInUrn(organization).split(':').pop() as string, localizedName: organization.displayName, vanityName: organization.handle };
          return {
            organization: linkedInUrn(organization),
            role: 'ADMINISTRATOR',
            roleAssignee: linkedInUrn(member),
            state: 'APPROVED',
            ...(fields ? { 'organization~': Object.fromEntries(fields.filter((field) => field in details).map((field) => [field, details[field]])) } : {}),
          };
        });
        return { body: { elements, paging: { count: elements.length, start: 0, total: elements.length, links: [] } } };
      },
    },
  ],
};

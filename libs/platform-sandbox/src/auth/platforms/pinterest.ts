import { PlatformRefusal, PlatformRoute, RouteAnswer, RouteContext } from '../../dialect';
import { pageOf, pageSize } from '../../dialects/listing';
import type { SandboxAuthority, SandboxIdentity } from '../authority';
import type { SandboxSignIn } from '../sign-in';
import { followerCount } from '../../dialects/metrics-growth';
import { AuthorizationCodePlatform, authorizeRoute, grantedScopes, tokenRoute } from './authorization-code';

/** Access tokens live 30 days; continuous refresh tokens 60 days, renewed (and replaced) by every refresh. */
const ACCESS_TTL_SECONDS = 30 * 24 * 3600;
const REFRESH_TTL_SECONDS = 60 * 24 * 3600;

/** "Scopes" (https://developers.pinterest.com/docs/getting-started/scopes/). */
const SCOPES = [
  'ads:read', 'ads:write', 'boards:read', 'boards:read_secret', 'boards:write', 'boards:write_secret', 'catalogs:read', 'catalogs:write',
  'pins:read', 'pins:read_secret', 'pins:write', 'pins:write_secret', 'user_accounts:read',
];

function issue(auth: SandboxAuthority, identityKey: string, clientId: string | null, scopes: string[]) {
  return auth.issue(identityKey, { clientId, scopes, accessTtlSeconds: ACCESS_TTL_SECONDS, refreshTtlSeconds: REFRESH_TTL_SECONDS });
}

/**
 * Pinterest answers OAuth refusals in its API's {code, message}: 283 "The authorization grant
 * is invalid" with a 401 for a refused code or refresh token (pinterest/pinterest-python-sdk#114),
 * 2 "Authentication failed." for the app's Basic credentials, 1 for a malformed request.
 */
function refuse(status: number, error: string, description: string): RouteAnswer {
  if (error === 'invalid_grant') return { status: 401, body: { code: 283, message: 'The authorization grant is invalid' } };
  if (error === 'invalid_client') return { status: 401, body: { code: 2, message: 'Authentication failed.' } };
  return { status, body: { code: 1, message: description } };
}

/** The app's id and secret from the HTTP Basic header the token endpoint requires. */
function basicClient({ headers }: RouteContext): { id?: string; secret?: string } {
  const header = String(headers.authorization ?? '');
  if (!header.startsWith('Basic ')) return {};
  const [id, ...secret] = Buffer.from(header.slice('Basic '.length), 'base64').toString().split(':');
  return { id, secret: secret.join(':') };
}

/**
 * The user's board: the `boardId` attribute's, else one every sandbox user has (a user who
 * pins has a board); `boardId: ''` makes a user without boards.
 */
function boardOf(user: SandboxIdentity): string | null {
  const boardId = user.attributes.boardId ?? `${user.platformAccountId}0001`;
  return boardId === '' ? null : boardId;
}

/**
 * The user's boards: its board (boardOf) and, with a `moreBoards` attribute (a count), that many
 * more, so a listing can span pages.
 */
function boardsOf(user: SandboxIdentity): Array<{ id: string; name: string }> {
  const first = boardOf(user);
  if (!first) return [];
  const more = Array.from({ length: Number(user.attributes.moreBoards ?? 0) }, (_, index) => ({ id: `${user.platformAccountId}${String(index + 2).padStart(4, '0')}`, name: `Sandbox board ${index + 2}` }));
  return [{ id: first, name: user.attributes.boardName ?? 'Sandbox board' }, ...more];
}

/** Identity routes need their scope: Pinterest answers 401 code 3 "Authorization failed." without it. */
function requireScope(ctx: RouteContext, scope: string): void {
  if (!grantedScopes(ctx).includes(scope)) throw new PlatformRefusal(401, '3', 'Authorization failed.');
}

/** A GET route about the signed-in user, answered only with `scope` granted (requireScope). */
function identityRoute(url: string, scope: string, answer: (user: SandboxIdentity, ctx: RouteContext) => RouteAnswer): PlatformRoute {
  return {
    method: 'GET',
    url,
    operation: 'identity',
    handle: (ctx) => {
      requireScope(ctx, scope);
      return answer(ctx.identity!, ctx);
    },
  };
}

/**
 * Pinterest API v5 OAuth as "Set up authentication and authorization" documents it
 * (https://developers.pinterest.com/docs/getting-started/set-up-authentication-and-authorization/),
 * under /pinterest standing for www.pinterest.com and api.pinterest.com: GET /oauth/
 * (client_id, redirect_uri, response_type=code, comma-separated scope, optional state),
 * POST /v5/oauth/token (the app's id and secret as HTTP Basic; authorization_code with
 * code and redirect_uri, refresh_token; continuous refresh: a refresh answers a new refresh
 * token and spends the one sent). No revocation endpoint. The account: GET
 * /v5/user_account; its boards: GET /v5/boards (one: see boardOf).
 */
const pinterest: AuthorizationCodePlatform = {
  platform: 'pinterest',
  refuse,
  scopes: SCOPES,
  scopeSeparator: ',',
  tokensFor: (auth, grant) => issue(auth, grant.identityKey, grant.clientId, grant.scopes),
  refresh: { rotate: true, accessTtlSeconds: ACCESS_TTL_SECONDS, refreshTtlSeconds: REFRESH_TTL_SECONDS },
  tokenAnswer: (pair, _identity, grantType) => ({
    body: {
      access_token: pair.accessToken,
      refresh_token: pair.refreshToken,
      response_type: grantType,
      token_type: 'bearer',
      expires_in: pair.expiresIn,
      refresh_token_expires_in: pair.refreshExpiresIn,
      scope: pair.scopes.join(','),
    },
  }),
};

export const pinterestSignIn: SandboxSignIn = {
  platform: 'pinterest',
  // Pinterest user ids are numeric strings.
  newAccountId: (auth) => String(549_755_800_000 + auth.nextSeq()),
  // Without named scopes a provisioned account granted them all.
  issueTokens: (auth, identity, clientId, scopes) => issue(auth, identity.key, clientId, scopes.length > 0 ? scopes : SCOPES),
  routes: [
    authorizeRoute('/oauth/', pinterest),
    tokenRoute('/v5/oauth/token', pinterest, basicClient),
    // "Get user account" (https://developers.pinterest.com/docs/api/v5/user_account-get): follower_count among its fields.
    identityRoute('/v5/user_account', 'user_accounts:read', (user, ctx) => ({
      body: {
        account_type: 'BUSINESS',
        id: user.platformAccountId,
        username: user.handle,
        profile_image: `https://i.pinimg.com/sandbox/${user.handle}.jpg`,
        website_url: '',
        about: '',
        business_name: user.displayName,
        board_count: boardOf(user) ? 1 : 0,
        pin_count: 0,
        follower_count: followerCount(ctx.store, user),
        following_count: 0,
        monthly_views: 0,
      },
    })),
    // "List boards" (https://developers.pinterest.com/docs/api/v5/boards-list): page_size 1 to 250
    // (default 25), the answer's `bookmark` names the next page (null on the last).
    identityRoute('/v5/boards', 'boards:read', (user, ctx) => {
      const refusal = (message: string) => new PlatformRefusal(400, '1', message);
      const { page, next } = pageOf(boardsOf(user), ctx.query.bookmark, pageSize(ctx.query.page_size, { min: 1, max: 250, default: 25 }, refusal), refusal);
      const items = page.map(({ id, name }) => ({ id, name, description: '', owner: { username: user.handle }, privacy: 'PUBLIC', pin_count: 0 }));
      return { body: { items, bookmark: next } };
    }),
  ],
};

import { PlatformRefusal, PlatformRoute, required, RouteAnswer, RouteContext } from '../../dialect';
import type { SandboxAuthority, SandboxIdentity } from '../authority';
import type { SandboxSignIn } from '../sign-in';
import { checkApp, checkedToken, consentRoute, graphFields, issueLongLived, longLivedAgeSeconds, redeemCode, tokenAnswer } from './meta';

/**
 * Facebook Login as the sandbox plays it, from Meta's pages:
 * - "Manually Build a Login Flow" (https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow):
 *   the dialog, the code exchange on /oauth/access_token (client_id, redirect_uri, client_secret, code);
 * - "Long-Lived Access Tokens" (https://developers.facebook.com/docs/facebook-login/guides/access-tokens/get-long-lived):
 *   grant_type=fb_exchange_token, 60 days; a page token got with a long-lived user token has no expiry;
 * - Pages "Getting Started" (https://developers.facebook.com/docs/pages/getting-started): GET /me/accounts,
 *   one entry per page with its page token (and, asked for, its instagram_business_account);
 * - User "permissions" edge (https://developers.facebook.com/docs/graph-api/reference/user/permissions):
 *   DELETE /{user-id}/permissions with a user or app access token ends the grant, page tokens included.
 * Served under /facebook and /instagram alike: Instagram professional accounts sign in through Facebook Login.
 */

/** Short-lived user tokens "usually have a lifetime of about an hour or two". */
const SHORT_LIVED_SECONDS = 2 * 3600;
const DEFAULT_PAGE_SIZE = 25;

export function facebookLoginRoutes(): PlatformRoute[] {
  return [
    consentRoute('/:version/dialog/oauth', 'facebook', []),
    { method: 'GET', url: '/:version/oauth/access_token', operation: 'token', auth: 'none', handle: ({ store, query }) => accessToken(store.auth, query) },
    { method: 'GET', url: '/:version/me', operation: 'identity', handle: ({ identity, query }) => ({ body: ownFields(identity as SandboxIdentity, query.fields) }) },
    { method: 'GET', url: '/:version/me/accounts', operation: 'identity', handle: managedPages },
    { method: 'DELETE', url: '/:version/:node/permissions', operation: 'revoke', auth: 'none', handle: revokeGrant },
  ];
}

/** The code exchange (a short-lived user token) or, with grant_type=fb_exchange_token, a long-lived user token. */
function accessToken(auth: SandboxAuthority, query: Record<string, string>): RouteAnswer {
  if (query.grant_type === 'fb_exchange_token') {
    const clientId = required(query.client_id, 'client_id', '100');
    checkApp(auth, 'facebook', clientId, required(query.client_secret, 'client_secret', '100'));
    const { identity, token } = checkedToken(auth, query.fb_exchange_token);
    if (token.clientId !== null && token.clientId !== clientId) throw new PlatformRefusal(400, '190', 'Error validating access token: the token was issued to another app.');
    return tokenAnswer(issueLongLived(auth, identity.key, clientId, token.scopes));
  }
  if (query.grant_type !== undefined) throw new PlatformRefusal(400, '100', `Unsupported grant_type ${query.grant_type}`);
  const grant = redeemCode(auth, 'facebook', query);
  return tokenAnswer(auth.issue(grant.identityKey, { clientId: grant.clientId, scopes: grant.scopes, accessTtlSeconds: SHORT_LIVED_SECONDS }));
}

/** GET /me: the token's own node (a user, or the page of a page token). Users have no username field since v2.0. */
function ownFields(identity: SandboxIdentity, fields: string | undefined): Record<string, unknown> {
  if (identity.kind === 'user') return graphFields({ id: identity.platformAccountId, name: identity.displayName }, 'User', fields, 'id,name');
  const nodeType = identity.kind === 'page' ? 'Page' : 'IGUser';
  return graphFields({ id: identity.platformAccountId, name: identity.displayName, username: identity.handle }, nodeType, fields, 'id,name');
}

/**
 * GET /me/accounts: the user's pages, a page token each — never expiring when the user
 * token is long-lived, else ending with it — paged with limit / after cursors.
 */
function managedPages(ctx: RouteContext): RouteAnswer {
  const user = ctx.identity as SandboxIdentity;
  if (user.kind !== 'user') throw new PlatformRefusal(400, '100', `(#100) Tried accessing nonexisting field (accounts) on node type (${user.kind === 'page' ? 'Page' : 'IGUser'})`);
  const auth = ctx.store.auth;
  const { token } = checkedToken(auth, requestToken(ctx));
  const pageTokenTtl = longLivedAgeSeconds(auth, token) !== null || token.expiresAtMs === null ? null : Math.ceil((token.expiresAtMs - auth.now()) / 1000);
  const managed = auth.managedBy(user.key);
  const pages = managed.filter((identity) => identity.platform === 'facebook' && identity.kind === 'page');
  const start = ctx.query.after ? Number(Buffer.from(ctx.query.after, 'base64url').toString()) : 0;
  const end = start + (Number(ctx.query.limit) || DEFAULT_PAGE_SIZE);
  const data = pages.slice(start, end).map((page) => {
    const linked = managed.find((identity) => identity.platform === 'instagram' && identity.attributes.pageId === page.platformAccountId);
    const node = {
      id: page.platformAccountId,
      name: page.displayName,
      username: page.handle,
      category: 'Brand',
      tasks: ['ADVERTISE', 'ANALYZE', 'CREATE_CONTENT', 'MESSAGING', 'MODERATE', 'MANAGE'],
      access_token: auth.issue(page.key, { clientId: token.clientId, scopes: token.scopes, accessTtlSeconds: pageTokenTtl }).accessToken,
      instagram_business_account: linked ? { id: linked.platformAccountId, username: linked.handle, name: linked.displayName } : null,
    };
    return graphFields(node, 'Page', ctx.query.fields, 'access_token,category,id,name,tasks');
  });
  const cursor = (index: number) => Buffer.from(String(index)).toString('base64url');
  const next = end < pages.length ? { next: `${ctx.baseUrl}/${ctx.params.version}/me/accounts?after=${cursor(end)}` } : {};
  return { body: { data, paging: { cursors: { before: cursor(start), after: cursor(Math.min(end, pages.length)) }, ...next } } };
}

/**
 * DELETE /{user-id}/permissions: with the user's own token or the app's access token
 * ("{app-id}|{app-secret}"); every token of the grant stops working, the pages' and
 * Instagram accounts' included. Answers {"success": true}.
 */
function revokeGrant(ctx: RouteContext): RouteAnswer {
  const auth = ctx.store.auth;
  const token = requestToken(ctx);
  const [appId, appSecret] = token?.split('|') ?? [];
  let user: SandboxIdentity | undefined;
  if (appSecret !== undefined) {
    checkApp(auth, 'facebook', appId, appSecret);
    user = auth.byPlatformId('facebook', ctx.params.node);
  } else {
    const { identity } = checkedToken(auth, token);
    user = ctx.params.node === 'me' || ctx.params.node === identity.platformAccountId ? identity : undefined;
    if (!user) throw new PlatformRefusal(403, '200', '(#200) A user access token can revoke only its own user\'s permissions');
  }
  if (!user || user.kind !== 'user') throw new PlatformRefusal(400, '100', `(#100) ${ctx.params.node} is not a user`);
  for (const identity of [user, ...auth.managedBy(user.key)]) auth.revokeIdentity(identity.key);
  return { body: { success: true } };
}

/** The access token of the request: the Authorization header or the access_token parameter. */
function requestToken(ctx: RouteContext): string | undefined {
  const header = ctx.headers.authorization;
  if (typeof header === 'string' && header.startsWith('Bearer ')) return header.slice('Bearer '.length).trim();
  return ctx.query.access_token;
}

/**
 * Facebook identities: users and pages with numeric ids. A completed sign-in gives a user
 * its long-lived token, a page a page token without expiry.
 */
export const facebookSignIn: SandboxSignIn = {
  platform: 'facebook',
  newAccountId: (auth) => String(100_000_000_000_000 + auth.nextSeq()),
  issueTokens: (auth, identity, clientId, scopes) =>
    identity.kind === 'page' ? auth.issue(identity.key, { clientId, scopes, accessTtlSeconds: null }) : issueLongLived(auth, identity.key, clientId, scopes),
  routes: facebookLoginRoutes(),
};

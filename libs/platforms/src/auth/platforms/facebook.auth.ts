import { isCredentialError, PlatformIdentity } from '../../connector';
import { arrayAt, stringAt } from '../../connectors/connector-context';
import { GRAPH_API_VERSION, graphHttp } from '../../connectors/meta-graph';
import { PlatformCallFailed, PlatformHttp } from '../../http/platform-http';
import { malformedAnswer } from '../../outcome';
import type { AuthContext } from '../auth-context';
import { bearerHeader, refusingCredential, requireApp, signInUrl, tokenSetFrom, withQuery } from '../oauth2';
import type { AuthorizationRequest, CodeExchange, OAuthApp, PlatformAuth, SignedInAccount, StoredCredentials, TokenSet } from '../platform-auth';

/**
 * Facebook Login for pages and Instagram professional accounts ("Manually Build a Login
 * Flow", https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow):
 * - consent at www.facebook.com/{version}/dialog/oauth (client_id, redirect_uri, state, scope);
 * - code exchange on graph.facebook.com/{version}/oauth/access_token (client_id, redirect_uri,
 *   client_secret, code), then the short-lived user token for a long-lived one, about 60 days
 *   (grant_type=fb_exchange_token: "Long-Lived Access Tokens",
 *   https://developers.facebook.com/docs/facebook-login/guides/access-tokens/get-long-lived);
 * - GET /me/accounts (Pages "Getting Started", https://developers.facebook.com/docs/pages/getting-started):
 *   one account per page with its page token, which has no expiry when got with a long-lived
 *   user token, and one per Instagram professional account linked to a page
 *   (instagram_business_account), whose token is the user's: "all API requests must include
 *   your app users's Facebook User access token" (Instagram API "Overview",
 *   https://developers.facebook.com/docs/instagram-api/overview);
 * - revocation: DELETE /{user-id}/permissions with a user or an app access token (User
 *   "permissions" edge, https://developers.facebook.com/docs/graph-api/reference/user/permissions).
 * The same client serves `facebook` and `instagram`: one sign-in gives both kinds of account.
 */

/**
 * Pages: list, publish, read and answer comments; Instagram: publish and comments
 * (permissions named by Page Feed, IG User Media and IG Comment references);
 * business_management for pages the user reaches through a Business Manager.
 */
export const FACEBOOK_SCOPES = [
  'pages_show_list',
  'pages_read_engagement',
  'pages_manage_posts',
  'pages_read_user_content',
  'pages_manage_engagement',
  'business_management',
  'instagram_basic',
  'instagram_content_publish',
  'instagram_manage_comments',
  // Analytics only (ANALYTICS_ONLY_SCOPES): Page post insights ("Page Insights", https://developers.facebook.com/docs/graph-api/reference/insights)
  // and IG Media insights (https://developers.facebook.com/docs/instagram-platform/reference/instagram-media/insights).
  'read_insights',
  'instagram_manage_insights',
];

const DIALOG_HOST = 'https://www.facebook.com';
const PAGE_FIELDS = 'id,name,username,access_token,instagram_business_account{id,username,name}';

export class FacebookAuth implements PlatformAuth {
  readonly signsInWithOAuth = true;
  readonly scopes = FACEBOOK_SCOPES;
  /** Instagram professional accounts come from the same Facebook Login, with the Facebook app (see the class comment). */
  readonly appPlatform = 'facebook' as const;
  private readonly http: PlatformHttp;
  /** graph.facebook.com/{version}: the token endpoint and the Graph API share the host. */
  private readonly graph: string;

  constructor(
    private readonly ctx: AuthContext,
    readonly platform: 'facebook' | 'instagram',
  ) {
    this.http = graphHttp(ctx.retry);
    this.graph = `${ctx.apiBaseUrl}/${GRAPH_API_VERSION}`;
  }

  authorizationUrl({ app, state }: AuthorizationRequest): string {
    return withQuery(signInUrl(this.ctx, DIALOG_HOST, `/${GRAPH_API_VERSION}/dialog/oauth`), {
      client_id: app.clientId,
      redirect_uri: app.redirectUri,
      state,
      response_type: 'code',
      scope: FACEBOOK_SCOPES.join(','),
    });
  }

  /** The code, then the short-lived user token for a long-lived one: the one page tokens without expiry are made from. */
  async exchangeCode({ app, code }: CodeExchange): Promise<TokenSet> {
    const { clientId, clientSecret } = requireApp(app);
    // A spent, expired or foreign code, or another redirect_uri, is Graph's 100 (invalid_parameter).
    const short = await refusingCredential(() => this.token({ client_id: clientId, redirect_uri: app.redirectUri, client_secret: clientSecret, code }), (error) => error.code === 'invalid_parameter');
    return this.longLived(app, short.accessToken);
  }

  /**
   * A user token gives its pages and their Instagram accounts; a page token handed in is
   * the page itself (a Page has no `accounts` edge: Graph answers 100).
   */
  async identify(tokens: TokenSet): Promise<SignedInAccount[]> {
    const me = await this.read(`/me?fields=id,name`, tokens.accessToken);
    const userId = stringAt(me, 'id');
    if (!userId) throw malformedAnswer('id');
    let pages: unknown[];
    try {
      pages = await this.managedPages(tokens.accessToken);
    } catch (error) {
      if (error instanceof PlatformCallFailed && error.error.code === 'invalid_parameter') return [pageAccount(me, tokens, {})];
      throw error;
    }
    return pages.flatMap((page) => {
      const pageToken = stringAt(page, 'access_token');
      if (!pageToken) throw malformedAnswer('access_token of a page');
      const pageId = stringAt(page, 'id') as string;
      const instagram = stringAt(page, 'instagram_business_account', 'id');
      const accounts = [pageAccount(page, { ...tokens, accessToken: pageToken, expiresAt: null }, { userId })];
      if (instagram) accounts.push(instagramAccount(page, tokens, { userId, pageId }));
      return accounts;
    });
  }

  /**
   * A page token cannot be renewed, and needs not be: it is checked, and kept while Graph
   * takes it. The Instagram accounts' user token is exchanged again for a new long-lived one
   * (fb_exchange_token takes any valid user token, not an expired one).
   */
  async refresh(app: OAuthApp | null, current: StoredCredentials): Promise<TokenSet> {
    if (current.kind === 'meta_page') {
      await this.read('/me?fields=id', current.accessToken);
      return current;
    }
    return this.longLived(app, current.accessToken);
  }

  /**
   * Ends the user's whole grant (every page and Instagram account of the sign-in): Graph
   * offers no narrower revocation. A page token cannot act for its user, so the app's access
   * token ({app-id}|{app-secret}) is used when the app is known. A token Graph already
   * refuses means the grant is gone. A page token handed in alone names no user: nothing to revoke.
   */
  async revoke(app: OAuthApp | null, current: StoredCredentials, identity: PlatformIdentity): Promise<void> {
    const userId = identity.attributes.userId;
    if (!userId) return;
    const token = app?.clientSecret ? `${app.clientId}|${app.clientSecret}` : current.accessToken;
    try {
      await this.http.send({ method: 'DELETE', url: `${this.graph}/${encodeURIComponent(userId)}/permissions`, headers: bearerHeader(token) });
    } catch (error) {
      if (!(error instanceof PlatformCallFailed && isCredentialError(error.error))) throw error;
    }
  }

  private async longLived(app: OAuthApp | null, userToken: string): Promise<TokenSet> {
    const { clientId, clientSecret } = requireApp(app);
    return refusingCredential(() => this.token({ grant_type: 'fb_exchange_token', client_id: clientId, client_secret: clientSecret, fb_exchange_token: userToken }), isCredentialError);
  }

  private async token(params: Record<string, string>): Promise<TokenSet> {
    const response = await this.http.send({ method: 'GET', url: withQuery(`${this.graph}/oauth/access_token`, params) });
    return tokenSetFrom(response.body);
  }

  /** A Graph read with a token; a refused token is CredentialRefused. */
  private async read(path: string, accessToken: string): Promise<unknown> {
    return refusingCredential(async () => (await this.http.send({ method: 'GET', url: `${this.graph}${path}`, headers: bearerHeader(accessToken) })).body, isCredentialError);
  }

  /** Every page of /me/accounts, following its `after` cursors. */
  private async managedPages(accessToken: string): Promise<unknown[]> {
    const pages: unknown[] = [];
    let after: string | undefined;
    do {
      const body = await this.read(`/me/accounts?${new URLSearchParams({ fields: PAGE_FIELDS, limit: '100', ...(after ? { after } : {}) })}`, accessToken);
      pages.push(...arrayAt(body, 'data'));
      after = stringAt(body, 'paging', 'next') ? stringAt(body, 'paging', 'cursors', 'after') : undefined;
    } while (after);
    return pages;
  }
}

/** A page account: page id, @username (or the id when the page has none), name; its user kept for revocation. */
function pageAccount(page: unknown, tokens: TokenSet, attributes: Record<string, string>): SignedInAccount {
  const id = stringAt(page, 'id') as string;
  return {
    platform: 'facebook',
    identity: { platformAccountId: id, handle: `@${stringAt(page, 'username') ?? id}`, displayName: stringAt(page, 'name') ?? id, instanceUrl: null, attributes },
    credentials: { ...tokens, kind: 'meta_page' },
  };
}

/** An Instagram professional account: ig user id, @username, name; the user's long-lived token, renewed by exchanging it again. */
function instagramAccount(page: unknown, tokens: TokenSet, attributes: Record<string, string>): SignedInAccount {
  const account = (field: string) => stringAt(page, 'instagram_business_account', field);
  const username = account('username') ?? (account('id') as string);
  return {
    platform: 'instagram',
    identity: { platformAccountId: account('id') as string, handle: `@${username}`, displayName: account('name') ?? username, instanceUrl: null, attributes },
    credentials: { ...tokens, kind: 'long_lived' },
  };
}

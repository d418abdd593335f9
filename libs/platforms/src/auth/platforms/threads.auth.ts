import { isCredentialError } from '../../connector';
import { stringAt } from '../../connectors/connector-context';
import { graphHttp, THREADS_API_VERSION } from '../../connectors/meta-graph';
import type { PlatformHttp } from '../../http/platform-http';
import { malformedAnswer } from '../../outcome';
import type { AuthContext } from '../auth-context';
import { bearerHeader, refusingCredential, requireApp, signInUrl, tokenSetFrom, withQuery } from '../oauth2';
import type { AuthorizationRequest, CodeExchange, OAuthApp, PlatformAuth, SignedInAccount, StoredCredentials, TokenSet } from '../platform-auth';

/**
 * Threads sign-in, its own OAuth (Threads "Get Access Tokens",
 * https://developers.facebook.com/docs/threads/get-started/get-access-tokens-and-permissions):
 * - consent at threads.net/oauth/authorize (client_id, redirect_uri, scope, response_type=code, state);
 * - code exchange: POST graph.threads.net/oauth/access_token (client_id, client_secret, code,
 *   grant_type=authorization_code, redirect_uri) gives a short-lived token (one hour);
 * - then GET /access_token?grant_type=th_exchange_token gives a long-lived one (60 days), which
 *   GET /refresh_access_token?grant_type=th_refresh_token renews once it is at least 24 hours
 *   old and while unexpired ("Long-Lived Access Tokens",
 *   https://developers.facebook.com/docs/threads/get-started/long-lived-tokens);
 * - identity: GET /v1.0/me?fields=id,username,name ("User Profiles",
 *   https://developers.facebook.com/docs/threads/threads-profiles).
 * The Threads API documents no revocation: the user removes the app in Threads' settings.
 */

/**
 * Basic access (every endpoint), publishing, posting, hiding (threads_manage_replies) and reading
 * replies, and deleting the user's own replies (threads_delete: Delete Posts,
 * https://developers.facebook.com/docs/threads/posts/delete-posts).
 */
// threads_manage_insights: analytics only (ANALYTICS_ONLY_SCOPES); "Required for making GET calls to insights endpoints" (https://developers.facebook.com/docs/threads/insights).
export const THREADS_SCOPES = ['threads_basic', 'threads_content_publish', 'threads_manage_replies', 'threads_read_replies', 'threads_delete', 'threads_manage_insights'];

const AUTHORIZE_HOST = 'https://threads.net';
const LONG_LIVED_MS = 60 * 86_400_000;
/** A long-lived token can be refreshed once it is at least 24 hours old. */
const REFRESHABLE_AFTER_MS = 86_400_000;

export class ThreadsAuth implements PlatformAuth {
  readonly platform = 'threads' as const;
  readonly signsInWithOAuth = true;
  readonly scopes = THREADS_SCOPES;
  private readonly http: PlatformHttp;

  constructor(private readonly ctx: AuthContext) {
    this.http = graphHttp(ctx.retry);
  }

  authorizationUrl({ app, state }: AuthorizationRequest): string {
    return withQuery(signInUrl(this.ctx, AUTHORIZE_HOST, '/oauth/authorize'), {
      client_id: app.clientId,
      redirect_uri: app.redirectUri,
      scope: THREADS_SCOPES.join(','),
      response_type: 'code',
      state,
    });
  }

  async exchangeCode({ app, code }: CodeExchange): Promise<TokenSet> {
    const { clientId, clientSecret } = requireApp(app);
    // A spent, expired or foreign code, or another redirect_uri, is Graph's 100 (invalid_parameter).
    const short = await refusingCredential(async () => {
      const form = { client_id: clientId, client_secret: clientSecret, code, grant_type: 'authorization_code', redirect_uri: app.redirectUri };
      return tokenSetFrom((await this.http.send({ method: 'POST', url: this.tokenUrl('/oauth/access_token'), form })).body);
    }, (error) => error.code === 'invalid_parameter');
    return this.tokenCall('/access_token', { grant_type: 'th_exchange_token', client_secret: clientSecret, access_token: short.accessToken });
  }

  async identify(tokens: TokenSet): Promise<SignedInAccount[]> {
    const me = await refusingCredential(
      async () => (await this.http.send({ method: 'GET', url: `${this.ctx.apiBaseUrl}/${THREADS_API_VERSION}/me?fields=id,username,name`, headers: bearerHeader(tokens.accessToken) })).body,
      isCredentialError,
    );
    const id = stringAt(me, 'id');
    const username = stringAt(me, 'username');
    if (!id || !username) throw malformedAnswer('id and username');
    return [
      {
        platform: 'threads',
        identity: { platformAccountId: id, handle: `@${username}`, displayName: stringAt(me, 'name') || username, instanceUrl: null, attributes: {} },
        credentials: { ...tokens, kind: 'long_lived' },
      },
    ];
  }

  /**
   * The long-lived token re-extended with itself. Under 24 hours old it cannot be yet, and
   * needs not be: it is kept while the API takes it (a refused one is CredentialRefused).
   */
  async refresh(_app: OAuthApp | null, current: StoredCredentials): Promise<TokenSet> {
    if (current.expiresAt !== null && Date.parse(current.expiresAt) - Date.now() > LONG_LIVED_MS - REFRESHABLE_AFTER_MS) {
      await this.identify(current);
      return current;
    }
    return this.tokenCall('/refresh_access_token', { grant_type: 'th_refresh_token', access_token: current.accessToken });
  }

  async revoke(): Promise<void> {
    // Nothing to call: see above.
  }

  /** A GET token call; a refused token (expired, revoked) is CredentialRefused. */
  private tokenCall(path: string, params: Record<string, string>): Promise<TokenSet> {
    return refusingCredential(async () => tokenSetFrom((await this.http.send({ method: 'GET', url: withQuery(this.tokenUrl(path), params) })).body), isCredentialError);
  }

  /** graph.threads.net: the token endpoints and the API share the host. */
  private tokenUrl(path: string): string {
    return `${this.ctx.apiBaseUrl}${path}`;
  }
}

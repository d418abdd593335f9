import { isCredentialError, PlatformError } from '../../connector';
import { stringAt } from '../../connectors/connector-context';
import { mapXError } from '../../connectors/x.connector';
import { PlatformHttp } from '../../http/platform-http';
import { malformedAnswer } from '../../outcome';
import type { AuthContext } from '../auth-context';
import { basicHeader, mapOAuthError, oauth2Account, refusingCredential, requestTokens, requireApp, signInUrl, withQuery } from '../oauth2';
import { AuthorizationRequest, CodeExchange, CredentialRefused, OAuthApp, PlatformAuth, SignedInAccount, StoredCredentials, TokenSet } from '../platform-auth';

/**
 * X sign-in: OAuth 2.0 Authorization Code Flow with PKCE ("OAuth 2.0 Authorization Code
 * Flow with PKCE", https://docs.x.com/fundamentals/authentication/oauth-2-0/authorization-code
 * and https://docs.x.com/fundamentals/authentication/oauth-2-0/user-access-token):
 * - consent at x.com/i/oauth2/authorize with an S256 challenge and the state;
 * - code exchange, refresh and revocation on api.x.com/2/oauth2/{token,revoke}, as a
 *   confidential client: HTTP Basic base64(client_id:client_secret);
 * - access tokens live two hours; offline.access gives a refresh token, which X rotates:
 *   each refresh answers a new one and the old one stops working;
 * - identity: GET /2/users/me ("User lookup", https://docs.x.com/x-api/users/lookup/introduction):
 *   the numeric user id, the username (handle) and the name.
 */

/**
 * Posts and replies, hiding replies (tweet.moderate.write: Hide replies,
 * https://docs.x.com/x-api/posts/hide-replies/introduction), reading replies (recent search)
 * and the user, uploading the media posts carry (media.write: every POST /2/media/upload step,
 * https://docs.x.com/x-api/media/upload-media), and a refresh token. What each endpoint
 * requires is X_DOCUMENTED_SCOPES (libs/platforms/src/scopes/x.scopes.ts).
 */
export const X_SCOPES = ['tweet.read', 'tweet.write', 'tweet.moderate.write', 'users.read', 'media.write', 'offline.access'];

const AUTHORIZE_HOST = 'https://x.com';
const TOKEN_HOST = 'https://api.x.com';

/**
 * X refuses a spent, expired, revoked or unknown code or refresh token with invalid_request
 * ("Value passed for the authorization code was invalid." / "... the token was invalid.").
 */
const refusedByX = (error: PlatformError): boolean => error.code === 'invalid_grant' || (error.code === 'invalid_request' && /was invalid/i.test(error.message));

export class XAuth implements PlatformAuth {
  readonly platform = 'x' as const;
  readonly signsInWithOAuth = true;
  readonly scopes = X_SCOPES;
  private readonly oauth: PlatformHttp;
  private readonly api: PlatformHttp;

  constructor(private readonly ctx: AuthContext) {
    this.oauth = new PlatformHttp(mapOAuthError, ctx.retry);
    this.api = new PlatformHttp(mapXError, ctx.retry);
  }

  authorizationUrl({ app, state, codeChallenge }: AuthorizationRequest): string {
    return withQuery(signInUrl(this.ctx, AUTHORIZE_HOST, '/i/oauth2/authorize'), {
      response_type: 'code',
      client_id: app.clientId,
      redirect_uri: app.redirectUri,
      scope: X_SCOPES.join(' '),
      state,
      code_challenge: codeChallenge,
      code_challenge_method: 'S256',
    });
  }

  async exchangeCode({ app, code, codeVerifier }: CodeExchange): Promise<TokenSet> {
    return this.grant(app, { grant_type: 'authorization_code', code, redirect_uri: app.redirectUri, code_verifier: codeVerifier });
  }

  async identify(tokens: TokenSet): Promise<SignedInAccount[]> {
    const response = await refusingCredential(
      () => this.api.send({ method: 'GET', url: `${this.ctx.apiBaseUrl}/2/users/me`, headers: { authorization: `Bearer ${tokens.accessToken}` } }),
      isCredentialError,
    );
    const id = stringAt(response.body, 'data', 'id');
    const username = stringAt(response.body, 'data', 'username');
    if (!id || !username) throw malformedAnswer('data.id and data.username');
    const identity = { platformAccountId: id, handle: `@${username}`, displayName: stringAt(response.body, 'data', 'name') ?? username, instanceUrl: null, attributes: {} };
    return [oauth2Account('x', identity, tokens)];
  }

  async refresh(app: OAuthApp | null, current: StoredCredentials): Promise<TokenSet> {
    if (!current.refreshToken) throw new CredentialRefused('no_refresh_token', 'the X sign-in gave no refresh token (offline.access was not granted)');
    return this.grant(app, { grant_type: 'refresh_token', refresh_token: current.refreshToken });
  }

  /** Revokes the refresh token and the access token, so neither outlives the disconnection. */
  async revoke(app: OAuthApp | null, current: StoredCredentials): Promise<void> {
    const { clientId, clientSecret } = requireApp(app);
    const tokens = [
      { token: current.refreshToken, token_type_hint: 'refresh_token' },
      { token: current.accessToken, token_type_hint: 'access_token' },
    ];
    for (const { token, token_type_hint } of tokens) {
      if (!token) continue;
      await this.oauth.send({
        method: 'POST',
        url: signInUrl(this.ctx, TOKEN_HOST, '/2/oauth2/revoke'),
        form: { token, token_type_hint, client_id: clientId },
        headers: basicHeader(clientId, clientSecret),
      });
    }
  }

  private async grant(app: OAuthApp | null, form: Record<string, string>): Promise<TokenSet> {
    const { clientId, clientSecret } = requireApp(app);
    const url = signInUrl(this.ctx, TOKEN_HOST, '/2/oauth2/token');
    return refusingCredential(() => requestTokens(this.oauth, url, { ...form, client_id: clientId }, basicHeader(clientId, clientSecret)), refusedByX);
  }
}

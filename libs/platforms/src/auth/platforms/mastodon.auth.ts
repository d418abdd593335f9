import { isCredentialError, PlatformIdentity } from '../../connector';
import { stringAt } from '../../connectors/connector-context';
import { mapMastodonError } from '../../connectors/mastodon.connector';
import { PlatformHttp } from '../../http/platform-http';
import { malformedAnswer } from '../../outcome';
import type { AuthContext } from '../auth-context';
import { bearerHeader, isInvalidGrant, mapOAuthError, refusingCredential, requestTokens, requireApp, withQuery } from '../oauth2';
import { AuthorizationRequest, CodeExchange, CredentialRefused, OAuthApp, PlatformAuth, SignedInAccount, StoredCredentials, TokenSet } from '../platform-auth';

/**
 * Read the account and its statuses, post statuses and the media they carry (write:media:
 * POST /api/v2/media, https://docs.joinmastodon.org/methods/media/#v2), granular scopes
 * (https://docs.joinmastodon.org/api/oauth-scopes/). What each endpoint requires is
 * MASTODON_DOCUMENTED_SCOPES (libs/platforms/src/scopes/mastodon.scopes.ts).
 */
export const MASTODON_SCOPES = ['read:accounts', 'read:statuses', 'write:statuses', 'write:media'];
const SCOPES = MASTODON_SCOPES.join(' ');
const CLIENT_NAME = 'Social Publishing';

/**
 * Mastodon sign-in (OAuth 2 authorization code, https://docs.joinmastodon.org/client/token/).
 * Mastodon is federated: our app is registered on each instance at first use, and every
 * call goes to the instance the account lives on. Access tokens do not expire and there
 * is no refresh token (credential kind `static`).
 */
export class MastodonAuth implements PlatformAuth {
  readonly platform = 'mastodon' as const;
  readonly signsInWithOAuth = true;
  readonly scopes = MASTODON_SCOPES;
  /** The REST API ({"error": "..."}) and the OAuth endpoints ({"error", "error_description"}) speak different error dialects. */
  private readonly api: PlatformHttp;
  private readonly oauth: PlatformHttp;

  constructor(private readonly ctx: AuthContext) {
    this.api = new PlatformHttp(mapMastodonError, ctx.retry);
    this.oauth = new PlatformHttp(mapOAuthError, ctx.retry);
  }

  /**
   * POST /api/v1/apps (https://docs.joinmastodon.org/methods/apps/#create): client_name,
   * redirect_uris, scopes, website → a CredentialApplication with client_id / client_secret.
   * A refusal (422 "Validation failed: ...") is a configuration problem, not a credential's: it stays PlatformCallFailed.
   */
  async registerApp(instanceUrl: string, redirectUri: string): Promise<OAuthApp> {
    const response = await this.api.send({
      method: 'POST',
      url: `${this.instance(instanceUrl)}/api/v1/apps`,
      json: { client_name: CLIENT_NAME, redirect_uris: [redirectUri], scopes: SCOPES, website: new URL(redirectUri).origin },
    });
    const clientId = stringAt(response.body, 'client_id');
    const clientSecret = stringAt(response.body, 'client_secret');
    if (!clientId || !clientSecret) throw malformedAnswer('client_id and client_secret');
    return { clientId, clientSecret, redirectUri };
  }

  /**
   * GET /oauth/authorize (https://docs.joinmastodon.org/methods/oauth/#authorize). PKCE:
   * Mastodon 4.3+ takes code_challenge with S256 only (its /.well-known/oauth-authorization-server
   * lists code_challenge_methods_supported ["S256"]); older servers ignore the parameter.
   */
  authorizationUrl(request: AuthorizationRequest): string {
    return withQuery(`${this.instance(request.instanceUrl)}/oauth/authorize`, {
      response_type: 'code',
      client_id: request.app.clientId,
      redirect_uri: request.app.redirectUri,
      scope: SCOPES,
      state: request.state,
      code_challenge: request.codeChallenge,
      code_challenge_method: 'S256',
    });
  }

  /**
   * POST /oauth/token (https://docs.joinmastodon.org/methods/oauth/#token), form data:
   * {access_token, token_type: "Bearer", scope, created_at}; no expiry, no refresh token.
   * A used, expired or foreign code answers 400 invalid_grant (CredentialRefused); a wrong client
   * 401 invalid_client, a fault of our app's configuration, stays PlatformCallFailed.
   */
  async exchangeCode(exchange: CodeExchange): Promise<TokenSet> {
    const { clientId, clientSecret } = requireApp(exchange.app);
    const form = {
      grant_type: 'authorization_code',
      code: exchange.code,
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uri: exchange.app.redirectUri,
      code_verifier: exchange.codeVerifier,
      scope: SCOPES,
    };
    return refusingCredential(() => requestTokens(this.oauth, `${this.instance(exchange.instanceUrl)}/oauth/token`, form), isInvalidGrant);
  }

  /**
   * GET /api/v1/accounts/verify_credentials (https://docs.joinmastodon.org/methods/accounts/#verify_credentials):
   * the token's account; a revoked or unknown token answers 401 {"error": "The access token is invalid"}.
   */
  async identify(tokens: TokenSet, instanceUrl: string | null): Promise<SignedInAccount[]> {
    const instance = this.instance(instanceUrl);
    const response = await refusingCredential(
      () => this.api.send({ method: 'GET', url: `${instance}/api/v1/accounts/verify_credentials`, headers: bearerHeader(tokens.accessToken) }),
      isCredentialError,
    );
    const id = stringAt(response.body, 'id');
    const username = stringAt(response.body, 'username');
    if (!id || !username) throw malformedAnswer('id and username');
    // acct is the username for a local account (the only kind a token signs in as).
    const acct = stringAt(response.body, 'acct') ?? username;
    const identity: PlatformIdentity = { platformAccountId: id, handle: `@${acct}`, displayName: stringAt(response.body, 'display_name') || username, instanceUrl: instance, attributes: {} };
    return [{ platform: 'mastodon', identity, credentials: { ...tokens, kind: 'static' } }];
  }

  /** Mastodon tokens do not expire and have no refresh grant: a refused token needs a new sign-in. */
  async refresh(): Promise<TokenSet> {
    throw new CredentialRefused('not_refreshable', 'Mastodon access tokens cannot be refreshed; the account needs to sign in again');
  }

  /**
   * POST /oauth/revoke (https://docs.joinmastodon.org/methods/oauth/#revoke): client credentials and
   * the token; idempotent. A 403 unauthorized_client (another app's token) stays PlatformCallFailed.
   */
  async revoke(app: OAuthApp | null, current: StoredCredentials, identity: PlatformIdentity): Promise<void> {
    const { clientId, clientSecret } = requireApp(app);
    await this.oauth.send({
      method: 'POST',
      url: `${this.instance(identity.instanceUrl)}/oauth/revoke`,
      form: { client_id: clientId, client_secret: clientSecret, token: current.accessToken },
    });
  }

  /** The instance's base url: the account's own, else the configured one (mastodon.social, or the sandbox's /mastodon). */
  private instance(instanceUrl: string | null): string {
    return (instanceUrl ?? this.ctx.signInBaseUrl ?? this.ctx.apiBaseUrl).replace(/\/+$/, '');
  }
}


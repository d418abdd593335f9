import { isCredentialError } from '../../connector';
import { stringAt } from '../../connectors/connector-context';
import { mapTikTokError } from '../../connectors/tiktok.connector';
import { PlatformHttp } from '../../http/platform-http';
import type { AuthContext } from '../auth-context';
import { bearerHeader, isInvalidGrant, mapOAuthError, oauth2Account, refreshTokenOf, refusingCredential, requestTokens, requireApp, signInUrl, withQuery } from '../oauth2';
import type { AuthorizationRequest, CodeExchange, OAuthApp, PlatformAuth, SignedInAccount, StoredCredentials, TokenSet } from '../platform-auth';
import { CredentialRefused } from '../platform-auth';

const TIKTOK_WEB = 'https://www.tiktok.com';
const TIKTOK_API = 'https://open.tiktokapis.com';

/**
 * Read the profile and post videos and photos. `username` (the @handle our public urls
 * need) is a user.info.profile field, not a user.info.basic one ("Get User Info",
 * https://developers.tiktok.com/doc/tiktok-api-v2-get-user-info). video.list reads the user's
 * public posts ("List Videos", https://developers.tiktok.com/doc/tiktok-api-v2-video-list): how a
 * post whose answer was lost is found.
 */
// user.info.stats: analytics only (ANALYTICS_ONLY_SCOPES), the follower_count field of Get User Info (https://developers.tiktok.com/doc/tiktok-api-v2-get-user-info).
export const TIKTOK_SCOPES = ['user.info.basic', 'user.info.profile', 'user.info.stats', 'video.publish', 'video.upload', 'video.list'];

/**
 * TikTok Login Kit for Web (https://developers.tiktok.com/doc/login-kit-web): consent at
 * www.tiktok.com/v2/auth/authorize/ with client_key and comma-separated scopes; no PKCE
 * (code_verifier is "required for mobile and desktop apps" only). Tokens from
 * open.tiktokapis.com/v2/oauth/token/ ("Get a User Access Token",
 * https://developers.tiktok.com/doc/oauth-get-a-user-access-token); a refresh returns a new
 * refresh token and the previous one stops working ("Refresh a User Access Token",
 * https://developers.tiktok.com/docs/en/oauth-refresh-a-user-access-token); revocation at
 * /v2/oauth/revoke/ ("Revoke a User Access Token",
 * https://developers.tiktok.com/docs/en/oauth-revoke-a-user-access-token). OAuth errors are
 * {error, error_description, log_id} ("Error Handling", https://developers.tiktok.com/doc/oauth-error-handling).
 */
export class TikTokAuth implements PlatformAuth {
  readonly platform = 'tiktok' as const;
  readonly signsInWithOAuth = true;
  readonly scopes = TIKTOK_SCOPES;
  private readonly oauth: PlatformHttp;
  private readonly api: PlatformHttp;

  constructor(private readonly ctx: AuthContext) {
    this.oauth = new PlatformHttp(mapOAuthError, ctx.retry);
    this.api = new PlatformHttp(mapTikTokError, ctx.retry);
  }

  authorizationUrl({ app, state }: AuthorizationRequest): string {
    return withQuery(signInUrl(this.ctx, TIKTOK_WEB, '/v2/auth/authorize/'), {
      client_key: app.clientId,
      scope: TIKTOK_SCOPES.join(','),
      response_type: 'code',
      redirect_uri: app.redirectUri,
      state,
    });
  }

  exchangeCode({ app, code }: CodeExchange): Promise<TokenSet> {
    const { clientId, clientSecret, redirectUri } = requireApp(app);
    return this.token({ client_key: clientId, client_secret: clientSecret, code, grant_type: 'authorization_code', redirect_uri: redirectUri });
  }

  async identify(tokens: TokenSet): Promise<SignedInAccount[]> {
    const response = await refusingCredential(
      () =>
        this.api.send({
          method: 'GET',
          url: `${this.ctx.apiBaseUrl}/v2/user/info/?fields=open_id,union_id,avatar_url,display_name,username`,
          headers: bearerHeader(tokens.accessToken),
        }),
      isCredentialError,
    );
    const openId = stringAt(response.body, 'data', 'user', 'open_id');
    const username = stringAt(response.body, 'data', 'user', 'username');
    // TikTok leaves out the fields of scopes the user did not grant: without a username there is no public url.
    if (!openId || !username) throw new CredentialRefused('scope_not_authorized', 'TikTok gave no username: the user.info.profile scope was not granted');
    return [
      oauth2Account(
        'tiktok',
        { platformAccountId: openId, handle: `@${username}`, displayName: stringAt(response.body, 'data', 'user', 'display_name') || username, instanceUrl: null, attributes: {} },
        tokens,
      ),
    ];
  }

  /** The answer's refresh token replaces the one sent, which TikTok no longer accepts. */
  refresh(app: OAuthApp | null, current: StoredCredentials): Promise<TokenSet> {
    const { clientId, clientSecret } = requireApp(app);
    return this.token({ client_key: clientId, client_secret: clientSecret, grant_type: 'refresh_token', refresh_token: refreshTokenOf(current) });
  }

  async revoke(app: OAuthApp | null, current: StoredCredentials): Promise<void> {
    const { clientId, clientSecret } = requireApp(app);
    await this.oauth.send({
      method: 'POST',
      url: signInUrl(this.ctx, TIKTOK_API, '/v2/oauth/revoke/'),
      form: { client_key: clientId, client_secret: clientSecret, token: current.accessToken },
    });
  }

  private token(form: Record<string, string>): Promise<TokenSet> {
    return refusingCredential(() => requestTokens(this.oauth, signInUrl(this.ctx, TIKTOK_API, '/v2/oauth/token/'), form), isInvalidGrant);
  }
}
